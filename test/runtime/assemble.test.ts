import { beforeAll, describe, expect, it } from 'vitest';
import { getSystemPrompt } from '../../compiler/runtime/assemble.js';
import { BundleError, type Bundle, type BundleProfile } from '../../compiler/runtime/bundle.js';
import { loadBundle } from '../../compiler/runtime/load-bundle.js';
import type { Manifest } from '../../compiler/runtime/manifest.js';
import { createSectionCache } from '../../compiler/runtime/section-cache.js';
import { isSystemPrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY as B } from '../../compiler/runtime/system-prompt.js';
import { MissingVariableError } from '../../compiler/runtime/thunk-runtime.js';
import { FIXTURE_DIR } from './fixture.js';

const INTRO = 'You are the fixture agent of the prompt-build runtime tests.';
const RULES = '# Rules\n\n- Keep answers short.\n- Never guess a file path.';
const SIMPLE = 'You are a concise assistant. Answer in one paragraph.';
const env = (cwd: string) => `# Environment\n\nWorking directory: ${cwd}`;
const SERVERS = [{ name: 'github', instructions: 'Use it for issues.' }];
const MCP = '# MCP Server Instructions\n\n## github\nUse it for issues.';

describe('getSystemPrompt on the fixture bundle', () => {
  let bundle: Bundle;
  beforeAll(async () => {
    bundle = await loadBundle(FIXTURE_DIR);
  });

  it('assembles static texts, the boundary, then dynamic sections, trailing newlines trimmed', async () => {
    const prompt = await getSystemPrompt(bundle, {
      context: { cwd: '/repo', mcpServers: SERVERS },
      cache: createSectionCache(),
    });
    expect(prompt).toEqual([INTRO, RULES, B, env('/repo'), MCP]);
    expect(isSystemPrompt(prompt)).toBe(true);
  });

  it('drops a section that renders empty', async () => {
    const prompt = await getSystemPrompt(bundle, { context: { cwd: '/repo' }, cache: createSectionCache() });
    expect(prompt).toEqual([INTRO, RULES, B, env('/repo')]);
  });

  it('prints values as data: a value that looks like a template stays as written', async () => {
    const prompt = await getSystemPrompt(bundle, { context: { cwd: '{{model}} <b>' }, cache: createSectionCache() });
    expect(prompt.at(-1)).toBe(env('{{model}} <b>'));
  });

  it.each([
    ['simple mode returns the simple profile, whatever profile says', { mode: 'simple', profile: 'default' }, [SIMPLE, B]],
    ['proactive mode returns the proactive profile', { mode: 'proactive' }, [INTRO, B, env('/repo')]],
    ['a named profile in the default mode', { mode: 'default', profile: 'proactive' }, [INTRO, B, env('/repo')]],
  ] as const)('%s', async (_name, options, expected) => {
    const prompt = await getSystemPrompt(bundle, { ...options, context: { cwd: '/repo' }, cache: createSectionCache() });
    expect(prompt).toEqual(expected);
  });

  it('reuses a cached section for the session and recomputes an uncached one every time', async () => {
    const cache = createSectionCache();
    await getSystemPrompt(bundle, { context: { cwd: '/first' }, cache });
    const later = await getSystemPrompt(bundle, { context: { cwd: '/second', mcpServers: SERVERS }, cache });
    // env-info is cached: still the first session value. mcp-instructions is uncached: it follows the context.
    expect(later).toEqual([INTRO, RULES, B, env('/first'), MCP]);
    cache.clear();
    const cleared = await getSystemPrompt(bundle, { context: { cwd: '/second' }, cache });
    expect(cleared).toEqual([INTRO, RULES, B, env('/second')]);
  });

  it('surfaces a missing required variable as the thunk runtime error, naming section and variable', async () => {
    const error = await getSystemPrompt(bundle, { context: {}, cache: createSectionCache() }).catch((e) => e);
    expect(error).toBeInstanceOf(MissingVariableError);
    expect(error).toMatchObject({ section: 'env-info', variable: 'cwd' });
  });

  it('refuses an unknown profile, listing the known ones', async () => {
    await expect(
      getSystemPrompt(bundle, { profile: 'nope', context: {}, cache: createSectionCache() }),
    ).rejects.toThrow(new BundleError('the bundle has no profile "nope" (profiles: default, proactive, simple)'));
  });

  it('keeps agent prompts, trimmed, beside the profiles', () => {
    expect(bundle.agents.get('explore')?.prompt).toBe(
      'You explore a codebase and report what you find. You never edit files.',
    );
    expect(bundle.agents.get('explore')?.definition.tools).toEqual(['Glob', 'Grep', 'Read']);
  });
});

describe('getSystemPrompt result filtering', () => {
  const profile: BundleProfile = {
    name: 'default',
    staticTexts: ['static'],
    dynamicSections: [
      { name: 'null', cache: 'cached', render: () => null },
      { name: 'empty', cache: 'cached', render: () => '' },
      { name: 'blank', cache: 'uncached', reason: 'test', render: () => ' \n\t\n' },
      { name: 'newlines', cache: 'cached', render: () => '\n\n' },
      { name: 'kept', cache: 'cached', render: () => 'kept  \n\n' },
    ],
  };
  const bundle: Bundle = { manifest: {} as Manifest, profiles: new Map([['default', profile]]), agents: new Map() };

  it('drops null, empty and whitespace-only results and trims only trailing newlines', async () => {
    expect(await getSystemPrompt(bundle, { context: {}, cache: createSectionCache() })).toEqual([
      'static',
      B,
      'kept  ',
    ]);
  });

  it('keeps the boundary when every dynamic section drops out', async () => {
    const onlyEmpty: BundleProfile = { ...profile, dynamicSections: profile.dynamicSections.slice(0, 2) };
    const small: Bundle = { ...bundle, profiles: new Map([['default', onlyEmpty]]) };
    expect(await getSystemPrompt(small, { context: {}, cache: createSectionCache() })).toEqual(['static', B]);
  });
});
