/**
 * docs/authoring.md#fidelity at the edges: what a section says is what the model reads, byte
 * for byte — leading blank lines, trailing whitespace, no final newline, a
 * lone carriage return — and comments only where the policy removes them.
 * An agent body loses its leading blank lines, as Claude Code trims them.
 */
import { describe, expect, it } from 'vitest';
import { buildProject, type ProjectBuild } from '../../compiler/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

async function build(files: Record<string, string>, options: Record<string, unknown> = {}): Promise<ProjectBuild> {
  const root = await tempDir('pb-fidelity-');
  await writeTree(root, files);
  return buildProject({ root, cacheDir: null, write: false, ...options });
}

function sectionText(result: ProjectBuild, name: string): string {
  const entry = result.bundle!.manifest.profiles.p!.sections.find((s) => s.name === name)!;
  return result.bundle!.files.get(entry.file)!;
}

const EDGES: Record<string, string> = {
  leading: '\n\n  \nStarts after blank lines.\n',
  trailing: 'Ends in spaces.   \n\t\n',
  unterminated: 'No final newline',
  'lone-cr': 'one\rtwo\r\nthree\n',
};

describe('fidelity at the edges', () => {
  it('static sections keep every edge byte (CRLF read as LF, a lone CR kept)', async () => {
    const files: Record<string, string> = { 'prompts/profiles/p.md': `---\nsections: [${Object.keys(EDGES).join(', ')}]\n---\n` };
    for (const [name, body] of Object.entries(EDGES)) files[`prompts/sections/${name}.md`] = body;
    // A lone CR is a `source/control-character` error by default; a project that means it lowers the rule and gets it kept.
    const result = await build(files, { ruleLevels: { 'source/control-character': 'warning' } });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(sectionText(result, 'leading')).toBe(EDGES.leading);
    expect(sectionText(result, 'trailing')).toBe(EDGES.trailing);
    expect(sectionText(result, 'unterminated')).toBe(EDGES.unterminated);
    expect(sectionText(result, 'lone-cr')).toBe('one\rtwo\nthree\n');
  });

  it('verbatim keeps comments, include lines and braces as written', async () => {
    const body = '<!-- INSTRUCTION FOR CLAUDE: fill this in -->\n@./missing.md\n{{placeholder}}\n';
    const result = await build({
      'prompts/sections/v.md': `---\nverbatim: true\n---\n${body}`,
      'prompts/profiles/p.md': '---\nsections: [v]\ncacheWarning: false\n---\n',
    });
    expect(result.diagnostics).toEqual([]);
    expect(sectionText(result, 'v')).toBe(body);
  });

  it('comments: keep in a file keeps them; the project default strips the rest and inspect data counts what went', async () => {
    const result = await build({
      'prompts/sections/kept.md': '---\ncomments: keep\n---\n<!-- for the model -->\nText.\n',
      'prompts/sections/stripped.md': 'A.\n\n<!-- one -->\n\nB.\n\n<!-- two, longer -->\n',
      'prompts/profiles/p.md': '---\nsections: [kept, stripped]\n---\n',
    });
    expect(sectionText(result, 'kept')).toBe('<!-- for the model -->\nText.\n');
    expect(sectionText(result, 'stripped')).toBe('A.\n\nB.\n\n');
    const [kept, stripped] = result.bundle!.manifest.profiles.p!.sections;
    expect(kept!.stripped).toBeUndefined();
    // Each comment goes with the blank line after it, as a block does; each is listed where it was, in the text and in its file.
    expect(stripped!.stripped).toEqual({
      comments: 2,
      bytes: Buffer.byteLength('A.\n\n<!-- one -->\n\nB.\n\n<!-- two, longer -->\n') - Buffer.byteLength('A.\n\nB.\n\n'),
      at: [
        { offset: 'A.\n\n'.length, file: 'prompts/sections/stripped.md', line: 3, bytes: '<!-- one -->\n\n'.length },
        { offset: 'A.\n\nB.\n\n'.length, file: 'prompts/sections/stripped.md', line: 7, bytes: '<!-- two, longer -->\n'.length },
      ],
    });
  });

  it('the project default keep (stripComments: false) is overridden by a file’s comments: strip', async () => {
    const result = await build(
      {
        'prompts/sections/a.md': '---\ncomments: strip\n---\n<!-- gone -->\nA.\n',
        'prompts/sections/b.md': '<!-- stays -->\nB.\n',
        'prompts/profiles/p.md': '---\nsections: [a, b]\n---\n',
      },
      { stripComments: false },
    );
    expect(sectionText(result, 'a')).toBe('A.\n');
    expect(sectionText(result, 'b')).toBe('<!-- stays -->\nB.\n');
  });

  it('a wrong comments: value is a positioned error', async () => {
    const result = await build({ 'prompts/sections/a.md': '---\ncomments: maybe\n---\nA.\n', 'prompts/profiles/p.md': '---\nsections: [a]\n---\n' });
    expect(result.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['frontmatter/invalid-field prompts/sections/a.md:2:1']);
  });

  it('an agent body loses its leading blank lines and nothing else; the manifest says so', async () => {
    const result = await build({ 'agents/a.md': '---\nname: a\ndescription: d\n---\n\n\nYou are a.  \n\n' });
    const agent = result.bundle!.manifest.agents.a!;
    expect(result.bundle!.files.get(agent.file)).toBe('You are a.  \n\n');
    // The differences from Claude Code's own reading are recorded: the final newline kept, a literal `\n` in a description kept.
    expect(result.bundle!.manifest.options!.agentBodies).toBe('leading-blank-lines-trimmed, final-newline-kept');
    expect(result.bundle!.manifest.options!.agentDescriptions).toBe('as-read-from-yaml');
    const escaped = await build({ 'agents/a.md': '---\nname: a\ndescription: Use it.\\n\\nExamples\n---\nA.\n' });
    expect(escaped.bundle!.manifest.agents.a!.description).toBe('Use it.\\n\\nExamples');
    // The source map still points the first byte at the line it was written on.
    expect(agent.line).toBe(7);
  });
});
