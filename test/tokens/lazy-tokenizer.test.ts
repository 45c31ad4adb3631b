/**
 * The tokenizer is loaded only by a build that counts: a no-change build
 * (the build stamp holds) must not import gpt-tokenizer, which costs more
 * than half a second to load. Seen from a module resolve hook in the CLI
 * process, which notes every gpt-tokenizer module it resolves.
 */
import fs from 'node:fs/promises';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir, writeTree, CLI_BIN } from '../helpers/tree.js';

const HOOKS = `
import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/gpt-tokenizer/')) fs.appendFileSync(process.env.PB_TRACE, resolved.url + '\\n');
  return resolved;
}
`;

function buildWithTrace(root: string, trace: string, hooks: string): Promise<number> {
  const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, CLI_BIN, 'build', '--root', root], { env: { ...process.env, PB_TRACE: trace, NO_COLOR: '1' } }, (error) =>
      resolve(error ? 1 : 0),
    );
  });
}

describe('loading the tokenizer', () => {
  it('a build that counts loads it; a no-change build does not', async () => {
    const root = await tempDir();
    await writeTree(root, { 'prompts/profiles/default.md': '---\nsections: [intro]\n---\n', 'prompts/sections/intro.md': '---\nname: intro\n---\nHello.\n' });
    const hooks = path.join(root, 'hooks.mjs');
    await fs.writeFile(hooks, HOOKS);
    const first = path.join(root, 'first.trace');
    const second = path.join(root, 'second.trace');
    expect(await buildWithTrace(root, first, hooks)).toBe(0);
    // Its encoder, on the ranks build:tool wrote as JSON beside the counter (tokens/o200k.ts).
    const counted = await fs.readFile(first, 'utf8');
    expect(counted).toMatch(/gpt-tokenizer\/esm\/GptEncoding\.js/);
    expect(counted).not.toMatch(/bpeRanks\/o200k_base/);
    expect(await buildWithTrace(root, second, hooks)).toBe(0);
    await expect(fs.readFile(second, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' }); // nothing of gpt-tokenizer was resolved
  });
});
