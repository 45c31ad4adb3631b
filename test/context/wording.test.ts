/**
 * The context wording moved from code into the embedded prompt set
 * (prompts/sections/context/): rendered from the same data, the embedded
 * bundle gives exactly the text the code gave before the move (before.json
 * was written by the code as it was), and a project bundle's own wording
 * wins over the embedded one.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { instructionValues, isoDate } from '../../compiler/context/wording-values.js';
import { fetchSystemPromptParts } from '../../compiler/context/index.js';
import { EMBEDDED_BUNDLE_DIR } from '../../compiler/context/wording.js';
import { buildProject } from '../../compiler/index.js';
import { BundleError, loadBundle, prependUserContext, renderContextText } from '../../compiler/runtime/index.js';
import type { InstructionFile } from '../../compiler/context/discovery.js';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';

interface Before {
  gitSnapshot: Array<{ input: Record<string, unknown>; output: string }>;
  instructions: Array<{ input: InstructionFile[]; output: string | null }>;
  currentDate: Array<{ input: [number, number, number]; output: string }>;
  userContext: Array<{ input: Record<string, string>; output: Array<{ role: string; content: string }> }>;
}

const before = JSON.parse(await fs.readFile(path.join(REPO, 'test/context/wording/before.json'), 'utf8')) as Before;

describe('the context wording of the embedded prompt set', () => {
  it('renders exactly as the code did before the wording moved', async () => {
    const bundle = await loadBundle(EMBEDDED_BUNDLE_DIR);
    for (const c of before.gitSnapshot) expect(renderContextText(bundle, 'git-snapshot', c.input)).toBe(c.output);
    for (const c of before.instructions) {
      expect(c.input.length === 0 ? null : renderContextText(bundle, 'instructions', instructionValues(c.input))).toBe(c.output);
    }
    for (const c of before.currentDate) {
      expect(renderContextText(bundle, 'current-date', { date: isoDate(new Date(c.input[0], c.input[1], c.input[2], 12)) })).toBe(c.output);
    }
    for (const c of before.userContext) expect(prependUserContext([], c.input, bundle)).toEqual(c.output);
  });

  it('comes from a project bundle that has its own, and from the embedded one otherwise', async () => {
    const root = await tempDir('pb-wording-');
    const own = (text: string) => `---\nkind: dynamic\ninputs: [date]\n---\n${text}`;
    await writeTree(root, {
      'prompts/sections/intro.md': 'Hello.\n',
      'prompts/profiles/default.md': '---\nsections: [intro]\ncacheWarning: false\n---\n',
    });
    expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
    const plain = await loadBundle(path.join(root, 'dist'));
    expect(() => prependUserContext([], { currentDate: 'x' }, plain)).toThrow(BundleError);
    const fetch = (wording: typeof plain) =>
      fetchSystemPromptParts({ cwd: root, homeDir: root, managedPath: null, now: new Date(2025, 0, 2, 12), wording, getDefaultSystemPrompt: async () => ['p'] });
    const embedded = await fetch(plain);
    expect(embedded.userContext.currentDate).toBe("Today's date is 2025-01-02.");
    expect(prependUserContext([], embedded.userContext, embedded.wording)[0]!.content).toMatch(/^<system-reminder>\n/);

    await writeTree(root, {
      'prompts/profiles/context.md': '---\nsections: [git-snapshot, instructions, current-date, user-context]\ncacheWarning: false\n---\n',
      'prompts/sections/git-snapshot.md': '---\nkind: dynamic\ninputs: [commits]\n---\nGit: {{commits}}\n',
      'prompts/sections/instructions.md': '---\nkind: dynamic\ninputs: [files]\n---\n{{#each files}}{{path}}{{/each}}\n',
      'prompts/sections/current-date.md': own('Heute ist der {{date}}.{{!-- --~}}\n'),
      'prompts/sections/user-context.md': '---\nkind: dynamic\ninputs: [entries]\n---\n{{#each entries}}[{{key}}] {{value}}{{/each~}}\n',
    });
    expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
    const ownBundle = await loadBundle(path.join(root, 'dist'));
    const worded = await fetch(ownBundle);
    expect(worded.wording).toBe(ownBundle);
    expect(worded.userContext.currentDate).toBe('Heute ist der 2025-01-02.');
    expect(prependUserContext([], worded.userContext, worded.wording)[0]!.content).toBe('[currentDate] Heute ist der 2025-01-02.');
  });
});
