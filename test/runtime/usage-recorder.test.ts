/**
 * The usage recorder (docs/usage.md#recording-usage): records carry the prompt's
 * profile or agent through the priority chain, sinks never fail a request,
 * and Anthropic's cache diagnostics are threaded per session, a
 * `system_changed` miss between two bundles naming the section that changed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import {
  appendSystemContext,
  ArgumentError,
  buildEffectiveSystemPrompt,
  bundleIdentity,
  createSectionCache,
  createUsageRecorder,
  describeMiss,
  getAgentSystemPrompt,
  getSystemPrompt,
  jsonlUsageSink,
  loadBundle,
  recordUsage,
  type Bundle,
  type UsageRecord,
} from '../../compiler/runtime/index.js';
import { ANTHROPIC, BEDROCK } from '../conformance/usage-fixtures.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const TIME = { time: '2026-03-01T12:00:00Z' };

/** Two builds of one project, the second with the `tone` section edited: a deploy in the middle of a session. */
let before: Bundle;
let after: Bundle;

beforeAll(async () => {
  const root = await tempDir('pb-usage-');
  await writeTree(root, {
    'prompts/sections/intro.md': 'You are a careful assistant.\n',
    'prompts/sections/tone.md': 'Be brief.\n',
    'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
    'prompts/profiles/default.md': '---\nsections: [intro, tone, env]\ncacheWarning: false\n---\n',
    'agents/explore.md': '---\nname: explore\ndescription: Reads code.\n---\nYou explore code.\n',
  });
  expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
  await fs.cp(path.join(root, 'dist'), path.join(root, 'dist-before'), { recursive: true });
  await fs.writeFile(path.join(root, 'prompts/sections/tone.md'), 'Be brief and kind.\n');
  expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
  [before, after] = await Promise.all([loadBundle(path.join(root, 'dist-before')), loadBundle(path.join(root, 'dist'))]);
}, 60_000);

const promptOf = (bundle: Bundle) => getSystemPrompt(bundle, { context: { cwd: '/w' }, cache: createSectionCache() });

describe('the prompt a record names', () => {
  it('names the profile and the agent a prompt came from, through the priority chain and appended context', async () => {
    const prompt = await promptOf(before);
    expect(recordUsage(prompt, ANTHROPIC.warmHit, TIME)).toMatchObject({ profile: 'default', agent: null, staticPrefixHash: before.manifest.profiles.default!.staticPrefixHash });
    const effective = appendSystemContext(buildEffectiveSystemPrompt({ defaultSystemPrompt: prompt, appendSystemPrompt: 'Be terse.' }), { gitStatus: 'clean' });
    expect(recordUsage(effective, ANTHROPIC.warmHit, TIME)).toMatchObject({ profile: 'default' });
    const agent = getAgentSystemPrompt(before, 'explore');
    expect(recordUsage(agent, ANTHROPIC.warmHit, TIME)).toMatchObject({ profile: null, agent: 'explore', staticPrefixHash: before.manifest.agents.explore!.hash });
    // A custom prompt in front: not the bundle's prefix, so neither hash nor profile.
    const custom = buildEffectiveSystemPrompt({ defaultSystemPrompt: prompt, customSystemPrompt: 'Custom.' });
    expect(recordUsage(custom, ANTHROPIC.warmHit, TIME)).toMatchObject({ profile: null, agent: null, staticPrefixHash: null });
  });

  it('tells two builds apart by their identity, and one build from itself never', () => {
    expect(bundleIdentity(before)).toMatch(/^[0-9a-f]{16}$/);
    expect(bundleIdentity(before)).not.toBe(bundleIdentity(after));
    expect(bundleIdentity(before)).toBe(bundleIdentity(before));
  });
});

describe('createUsageRecorder', () => {
  it('sends each record to every sink, the bundle identity in it; a sink that throws fails nothing', async () => {
    const lines: string[] = [];
    const seen: UsageRecord[] = [];
    const errors: unknown[] = [];
    const recorder = createUsageRecorder({
      bundle: before,
      sinks: [
        () => {
          throw new Error('collector down');
        },
        jsonlUsageSink({ write: (text: string) => lines.push(text) }),
        (record) => seen.push(record),
      ],
      onError: (error) => errors.push(error),
    });
    const record = recorder.record(await promptOf(before), ANTHROPIC.coldWrite, { ...TIME, ttl: '5m' });
    expect(record).toMatchObject({ bundle: bundleIdentity(before), ttl: '5m', tokens: { written: 3000 } });
    expect(seen).toEqual([record]);
    expect(lines).toEqual([`${JSON.stringify(record)}\n`]);
    expect(errors).toEqual([new Error('collector down')]);
  });

  it('threads the previous response id per session, and names the section a deploy changed', async () => {
    const recorder = createUsageRecorder({ bundle: before, diagnostics: true });
    expect(recorder.diagnosticsFor('s-1')).toEqual({ previous_message_id: null });
    recorder.record(await promptOf(before), ANTHROPIC.coldWrite, { ...TIME, session: 's-1' });
    expect(recorder.diagnosticsFor('s-1')).toEqual({ previous_message_id: 'msg_01cold' });
    expect(recorder.diagnosticsFor('s-2')).toEqual({ previous_message_id: null });
    // The second request of the session is assembled from the new build.
    const record = recorder.record(await promptOf(after), ANTHROPIC.systemChanged, { ...TIME, session: 's-1', bundle: after });
    expect(record.bundle).toBe(bundleIdentity(after));
    expect(record.miss).toEqual({ reason: 'system_changed', missedTokens: 2900, previousResponseId: 'msg_01cold', sections: [{ name: 'tone', change: 'changed' }] });
    expect(describeMiss(record.miss!, record)).toBe('system_changed: section `tone` changed in the static prefix of profile `default` (2900 tokens not read)');
    expect(recorder.diagnosticsFor('s-1')).toEqual({ previous_message_id: 'msg_05changed' });
  });

  it('says the tail changed when the static prefix did not', async () => {
    const recorder = createUsageRecorder({ bundle: after, diagnostics: true });
    recorder.record(await promptOf(after), ANTHROPIC.coldWrite, { ...TIME, session: 's' });
    const record = recorder.record(await promptOf(after), ANTHROPIC.systemChanged, { ...TIME, session: 's' });
    expect(record.miss?.sections).toEqual([]);
    expect(describeMiss(record.miss!, record)).toContain('the static prefix of profile `default` is unchanged, so the dynamic tail changed');
  });

  it('leaves the sections out when it cannot know them: no bundle, or a prompt of none', async () => {
    const recorder = createUsageRecorder({ diagnostics: true });
    recorder.record(await promptOf(before), ANTHROPIC.coldWrite, { ...TIME, session: 's' });
    const record = recorder.record(await promptOf(after), ANTHROPIC.systemChanged, { ...TIME, session: 's' });
    expect(record.miss).toEqual({ reason: 'system_changed', missedTokens: 2900, previousResponseId: 'msg_01cold' });
  });

  it('forgets the least recently recorded session beyond maxSessions', async () => {
    const recorder = createUsageRecorder({ diagnostics: true, maxSessions: 2 });
    const prompt = await promptOf(before);
    for (const session of ['a', 'b', 'a', 'c']) recorder.record(prompt, ANTHROPIC.warmHit, { ...TIME, session });
    expect(recorder.diagnosticsFor('a').previous_message_id).toBe('msg_02warm');
    expect(recorder.diagnosticsFor('c').previous_message_id).toBe('msg_02warm');
    expect(recorder.diagnosticsFor('b').previous_message_id).toBeNull();
  });

  it('refuses what it cannot use, naming the parameter', () => {
    const refused = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(ArgumentError);
        return (error as ArgumentError).parameter;
      }
      throw new Error('not refused');
    };
    expect(refused(() => createUsageRecorder({ sinks: [5 as never] }))).toBe('options.sinks[0]');
    expect(refused(() => createUsageRecorder({ maxSessions: 0 }))).toBe('options.maxSessions');
    expect(refused(() => createUsageRecorder({ bundle: {} as Bundle }))).toBe('options.bundle');
    expect(refused(() => createUsageRecorder().diagnosticsFor('s'))).toBe('session');
    expect(refused(() => jsonlUsageSink({} as never))).toBe('out');
    expect(refused(() => createUsageRecorder().record([], BEDROCK.readOnly, { time: 'yesterday' }))).toBe('options.time');
  });
});
