/**
 * `handlebars/runtime` is imported only for a bundle with a thunk Handlebars
 * compiled (the code generator's own never use it): it costs a process
 * 15–20 ms. Seen from a module resolve hook in a process that loads a bundle
 * and renders it, as a service would; through `loadBundle` and through
 * `bundle.mjs` (which is given the runtime, or says it needs one).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';

const HOOKS = `
import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/handlebars/')) fs.appendFileSync(process.env.PB_TRACE, resolved.url + '\\n');
  return resolved;
}
`;

/** Loads `dist` in a process of its own and prints the default profile's prompt; what it resolved of handlebars goes to the trace. */
async function renderInProcess(dist: string, trace: string, form: 'directory' | 'module'): Promise<{ stdout: string; stderr: string }> {
  const hooks = path.join(path.dirname(trace), 'hooks.mjs');
  await fs.writeFile(hooks, HOOKS);
  const runtime = pathToFileURL(path.join(REPO, 'lib/runtime/index.js')).href;
  const script = `
    import { register } from 'node:module';
    register(${JSON.stringify(pathToFileURL(hooks).href)});
    const rt = await import(${JSON.stringify(runtime)});
    const bundle = ${form === 'directory' ? `await rt.loadBundle(${JSON.stringify(dist)})` : `rt.loadBundleModule(await import(${JSON.stringify(pathToFileURL(path.join(dist, 'bundle.mjs')).href)}))`};
    const prompt = await rt.getSystemPrompt(bundle, { context: { who: 'you', items: ['a', 'b'] }, cache: rt.createSectionCache() });
    console.log(JSON.stringify(prompt.filter((p) => p !== rt.SYSTEM_PROMPT_DYNAMIC_BOUNDARY)));
  `;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, PB_TRACE: trace } }, (_error, stdout, stderr) => resolve({ stdout, stderr }));
  });
}

const traced = (trace: string) => fs.readFile(trace, 'utf8').catch(() => '');

describe('the Handlebars runtime', () => {
  it('is not imported for a bundle whose thunks are all the code generator’s own', async () => {
    const root = await tempDir('pb-lazy-hb-');
    await writeTree(root, {
      'prompts/profiles/default.md': '---\nsections: [hello]\ncacheWarning: false\n---\n',
      'prompts/sections/hello.md': '---\nkind: dynamic\ninputs: [who, items]\n---\nHello {{who}}: {{#each items}}{{this}} {{/each}}\n',
    });
    expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
    const trace = path.join(root, 'trace');
    const run = await renderInProcess(path.join(root, 'dist'), trace, 'directory');
    expect(run.stdout.trim()).toBe(JSON.stringify(['Hello you: a b ']));
    expect(await traced(trace)).toBe('');
  });

  it('is imported for a thunk Handlebars compiled, which renders with it; bundle.mjs is told to pass it', async () => {
    const root = await tempDir('pb-lazy-hb-');
    // Block parameters are left to Handlebars by the code generator.
    await writeTree(root, {
      'prompts/profiles/default.md': '---\nsections: [hello]\ncacheWarning: false\n---\n',
      'prompts/sections/hello.md': '---\nkind: dynamic\ninputs: [who, items]\n---\nHello {{who}}: {{#each items as |item|}}{{item}} {{/each}}\n',
    });
    expect((await buildProject({ root, cacheDir: null, targets: ['js'] })).ok).toBe(true);
    const dist = path.join(root, 'dist');
    const trace = path.join(root, 'trace');
    const run = await renderInProcess(dist, trace, 'directory');
    expect(run.stdout.trim()).toBe(JSON.stringify(['Hello you: a b ']));
    expect(await traced(trace)).toMatch(/handlebars\/runtime\.js/);
    const moduleTrace = path.join(root, 'module-trace');
    const fromModule = await renderInProcess(dist, moduleTrace, 'module');
    expect(fromModule.stderr).toMatch(/needs its runtime: pass `handlebars`/);
  });
});
