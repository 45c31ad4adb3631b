/**
 * The runtime finds the static/dynamic boundary by the marker's value: a text
 * holding the marker is a build error, positioned where it is written.
 */
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { SYSTEM_PROMPT_DYNAMIC_BOUNDARY as MARKER } from '../../compiler/runtime/index.js';
import { buildThenBreak, errors, expectPreviousBundle } from '../helpers/rebuild.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const GOOD = {
  'prompts/profiles/p.md': '---\nsections: [a, b, d]\n---\n',
  'prompts/sections/a.md': 'Intro\n',
  'prompts/sections/b.md': 'Rules\n',
  'prompts/sections/d.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nCwd: {{cwd}}\n',
};

function rebuildWith(files: Record<string, string>) {
  return buildThenBreak(GOOD, (root) => writeTree(root, files));
}

describe('the boundary marker in a text', () => {
  it('a static section that is the marker is refused, and the previous bundle stays', async () => {
    const run = await rebuildWith({ 'prompts/sections/b.md': `${MARKER}\n` });
    expect(errors(run.result)).toEqual(['section/boundary-marker prompts/sections/b.md:1:1']);
    const d = run.result.diagnostics[0]!;
    expect(d.message).toBe(`'${MARKER}' is the runtime's dynamic boundary marker: no prompt text may hold it`);
    expect(d.excerpt).toBe(MARKER);
    await expectPreviousBundle(run);
  });

  it('a static section containing it is refused at the marker, past its frontmatter', async () => {
    const run = await rebuildWith({ 'prompts/sections/b.md': `---\ndescription: x\n---\nRules\nBefore ${MARKER} after\n` });
    expect(errors(run.result)).toEqual(['section/boundary-marker prompts/sections/b.md:5:8']);
    await expectPreviousBundle(run);
  });

  it('every occurrence is reported', async () => {
    const run = await rebuildWith({ 'prompts/sections/b.md': `${MARKER}${MARKER}\n\n  ${MARKER}\n` });
    expect(errors(run.result)).toEqual([
      'section/boundary-marker prompts/sections/b.md:1:1',
      `section/boundary-marker prompts/sections/b.md:1:${MARKER.length + 1}`,
      'section/boundary-marker prompts/sections/b.md:3:3',
    ]);
  });

  it('through an include, it is positioned in the included file and the note gives the chain', async () => {
    const run = await rebuildWith({
      'prompts/sections/b.md': 'Rules\n@../parts/x.md\n',
      'prompts/parts/x.md': `---\ntitle: part\n---\nline\nx ${MARKER}\n`,
    });
    expect(errors(run.result)).toEqual(['section/boundary-marker prompts/parts/x.md:5:3']);
    expect(run.result.diagnostics[0]!.note).toContain('(reached through prompts/sections/b.md → prompts/parts/x.md)');
    await expectPreviousBundle(run);
  });

  it('in the literal text of a dynamic template it is refused', async () => {
    const run = await rebuildWith({ 'prompts/sections/d.md': `---\nkind: dynamic\ninputs: [cwd]\n---\nCwd: {{cwd}} ${MARKER}\n` });
    expect(errors(run.result)).toEqual(['section/boundary-marker prompts/sections/d.md:5:14']);
    await expectPreviousBundle(run);
  });

  it('a verbatim static section may not hold it either', async () => {
    const run = await rebuildWith({ 'prompts/sections/b.md': `---\nverbatim: true\n---\n{{kept}} ${MARKER}\n` });
    expect(errors(run.result)).toEqual(['section/boundary-marker prompts/sections/b.md:4:10']);
  });

  it('in an agent body it is refused as an agent error', async () => {
    const run = await rebuildWith({ 'agents/x.md': `---\nname: x\ndescription: d\n---\nYou are x.\n${MARKER}\n` });
    expect(errors(run.result)).toEqual(['agent/boundary-marker agents/x.md:6:1']);
    await expectPreviousBundle(run);
  });

  it('the constant\'s name without its underscores is ordinary text', async () => {
    const root = await tempDir();
    await writeTree(root, { ...GOOD, 'prompts/sections/b.md': 'The runtime splits at SYSTEM_PROMPT_DYNAMIC_BOUNDARY.\n' });
    const result = await buildProject({ root, cacheDir: null, write: false });
    expect(errors(result)).toEqual([]);
  });
});
