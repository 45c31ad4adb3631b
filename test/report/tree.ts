/** A small project for the report tests: an include chain, dynamic sections cached and not, hostile text, an agent. */
import { runCliInProcess } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

/** Markup that must stay text wherever a bundle's strings land in the page. */
export const HOSTILE_SCRIPT = '</script><script>window.__pwned = 1</script>';
export const HOSTILE_IMG = '<img src=x onerror="window.__pwned = 2">';

export const TREE: Record<string, string> = {
  'prompts/sections/intro.md': 'You are a coding agent.\n@../fragments/rules.md\nEnd of intro.\n',
  'prompts/fragments/rules.md': 'Rule one.\nRule two.\n',
  'prompts/sections/hostile.md': `Text with ${HOSTILE_SCRIPT} and ${HOSTILE_IMG} inside.\nA second line.\n`,
  'prompts/sections/env-info.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
  'prompts/sections/mcp.md': `---\nkind: dynamic\ncache: uncached\nreason: 'servers come and go ${HOSTILE_IMG}'\noptional: [servers]\n---\n{{#if servers}}Servers: {{servers}}{{/if}}\n`,
  'prompts/profiles/default.md': `---\ndescription: 'The full prompt ${HOSTILE_IMG}'\ncacheWarning: false\nsections: [intro, hostile, env-info, mcp]\n---\n`,
  'prompts/profiles/simple.md': '---\ndescription: A short one.\ncacheWarning: false\nsections: [intro]\n---\n',
  'agents/helper.md': `---\nname: helper\ndescription: 'Helps. ${HOSTILE_IMG}'\ntools: Read, Grep\nmodel: haiku\n---\nYou help.\n`,
};

/** The tree written and built into `<root>/dist` (in this process: the build is setup, the report is under test). */
export async function builtTree(files: Record<string, string> = TREE): Promise<string> {
  const root = await tempDir('pb-report-');
  await writeTree(root, files);
  const run = await runCliInProcess(['build', '--root', root, '--no-cache']);
  if (run.code !== 0) throw new Error(`build failed: ${run.stderr}`);
  return root;
}
