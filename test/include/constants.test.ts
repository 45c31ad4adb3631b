/**
 * Build-time constants (`{{const.NAME}}`): resolved in static and dynamic
 * sections, fragments and agents; a static text stays plain text and its
 * hash — and the profile's static prefix hash — covers the resolved value.
 */
import { describe, expect, it } from 'vitest';
import { buildProject, type ProjectBuild } from '../../compiler/index.js';
import { createSectionCache, getSystemPrompt, loadBundle } from '../../compiler/runtime/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const TREE = {
  'prompts/sections/intro.md': 'Use {{const.BASH}} for shell commands.\n\n@../fragments/more.md\n',
  'prompts/fragments/more.md': 'Never {{ const.BASH }} to read files.\n',
  'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nIn {{cwd}}, {{const.BASH}} runs commands.\n',
  'prompts/profiles/default.md': '---\nsections: [intro, env]\ncacheWarning: false\n---\n',
  'agents/shell.md': '---\nname: shell\ndescription: runs things\n---\nYou use {{const.BASH}}.\n',
};

async function build(constants: Record<string, string>, files: Record<string, string> = TREE, write = false): Promise<{ root: string; result: ProjectBuild }> {
  const root = await tempDir('pb-const-');
  await writeTree(root, files);
  return { root, result: await buildProject({ root, cacheDir: null, write, constants }) };
}

describe('build-time constants', () => {
  it('are resolved in static sections, fragments, dynamic sections and agents', async () => {
    const { root, result } = await build({ BASH: 'Bash' }, TREE, true);
    expect(result.diagnostics).toEqual([]);
    const bundle = await loadBundle(`${root}/dist`);
    const prompt = await getSystemPrompt(bundle, { context: { cwd: '/repo' }, cache: createSectionCache() });
    expect(prompt.join('\n\n')).toContain('Use Bash for shell commands.\n\nNever Bash to read files.');
    expect(prompt.join('\n\n')).toContain('In /repo, Bash runs commands.');
    const agent = result.manifest!.agents.shell!;
    expect(result.bundle!.files.get(agent.file)).toBe('You use Bash.\n');
    // The dynamic section's template holds the value, not a variable the context must supply.
    const env = result.manifest!.profiles.default!.sections[1]!;
    expect(env.kind === 'dynamic' && env.inputs).toEqual(['cwd']);
  });

  it('changing a constant changes the static artifact and the static prefix hash', async () => {
    const a = (await build({ BASH: 'Bash' })).result.manifest!.profiles.default!;
    const b = (await build({ BASH: 'Shell' })).result.manifest!.profiles.default!;
    const again = (await build({ BASH: 'Bash' })).result.manifest!.profiles.default!;
    expect(a.staticPrefixHash).not.toBe(b.staticPrefixHash);
    expect(a.sections[0]!.hash).not.toBe(b.sections[0]!.hash);
    expect(again.staticPrefixHash).toBe(a.staticPrefixHash);
  });

  it('an unknown constant is an error at its position, with the nearest name', async () => {
    const { result } = await build({ BASH: 'Bash' }, { ...TREE, 'prompts/fragments/more.md': 'Then\n  run {{const.BAHS}} again.\n' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column} ${d.note}`)).toEqual([
      "const/unknown prompts/fragments/more.md:2:7 did you mean 'BASH'?",
    ]);
  });

  it('an unknown constant in a dynamic section is that error alone, not an undeclared input too', async () => {
    const { result } = await build({}, { ...TREE, 'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\n{{cwd}} {{const.NOPE}}\n' });
    expect(result.diagnostics.filter((d) => d.file === 'prompts/sections/env.md').map((d) => d.rule)).toEqual(['const/unknown']);
  });

  it('a verbatim section keeps {{const.X}} literal; any other {{…}} in a static section is still refused', async () => {
    const { result } = await build(
      { BASH: 'Bash' },
      {
        'prompts/sections/literal.md': '---\nverbatim: true\n---\nType {{const.BASH}} literally.\n',
        'prompts/sections/bad.md': 'Hello {{name}} and {{const.BASH}}.\n',
        'prompts/profiles/default.md': '---\nsections: [literal, bad]\ncacheWarning: false\n---\n',
      },
    );
    expect(result.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['section/static-template prompts/sections/bad.md:1:7']);
  });
});

describe('the git snapshot has one channel', () => {
  it('a dynamic section may test gitStatus but not print it', async () => {
    const { result } = await build(
      {},
      {
        'prompts/sections/hint.md': '---\nkind: dynamic\noptional: [gitStatus]\n---\n{{#if gitStatus}}See the snapshot below.{{/if}}\n',
        'prompts/sections/echo.md': '---\nkind: dynamic\noptional: [gitStatus]\n---\nSnapshot:\n{{#if gitStatus}}\n  {{gitStatus}}\n{{/if}}\n',
        'prompts/profiles/default.md': '---\nsections: [hint, echo]\ncacheWarning: false\n---\n',
      },
    );
    expect(result.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['section/context-channel prompts/sections/echo.md:7:3']);
  });

  it('a value next to a `{` in the text may not form a `{{` nobody wrote, in a dynamic or a static section', async () => {
    const files = {
      'prompts/profiles/default.md': '---\nsections: [intro, env]\ncacheWarning: false\n---\n',
      'prompts/sections/intro.md': 'Open {{const.ENDS}}{not.a.template}}\n',
      'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nIn {{const.ENDS}}{cwd}}, and {{const.ENDS}} {cwd}} is fine.\n',
    };
    const { result } = await build({ ENDS: 'x{' }, files);
    expect(result.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`).sort()).toEqual([
      'const/joins-braces prompts/sections/env.md:5:4',
      'const/joins-braces prompts/sections/intro.md:1:6',
    ]);
    expect(result.diagnostics[0]!.message).toBe("the value of 'ENDS' and the '{' next to its reference would form '{{'");
    expect(result.diagnostics[0]!.message).toMatch(/^the value of 'ENDS' and the '\{' next to its reference would form '\{\{'$/);
    expect(result.ok).toBe(false);
  });

  it('a value that starts or ends with `{` away from another `{` builds', async () => {
    const files = { ...TREE, 'prompts/sections/intro.md': 'A {{const.BASH}} b {{const.BASH}}.\n' };
    const { result } = await build({ BASH: '{x{' }, files);
    expect(result.diagnostics).toEqual([]);
  });
});
