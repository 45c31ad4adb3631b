/**
 * `prompt-build lsp` driven as an editor drives it: the built CLI started over
 * stdio, a JSON-RPC client (vscode-jsonrpc) speaking the protocol, a prompt
 * set on disk. One server for the file: each test leaves the tree as it found it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree, CLI_BIN } from '../helpers/tree.js';

interface PublishedDiagnostic {
  range: { start: { line: number; character: number } };
  severity: number;
  code: string;
  message: string;
  relatedInformation?: { message: string }[];
}

const TREE = {
  'prompts/sections/intro.md': 'You are careful.\n\n@../fragments/rules.md\n',
  'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
  'prompts/sections/spare.md': 'Not listed anywhere.\n',
  'prompts/fragments/rules.md': 'Read before you edit.\n',
  'prompts/profiles/default.md': '---\nsections:\n  - intro\n  - env\n---\n',
  'prompts/sections/product.md': 'You work for {{const.PRODUCT}}.\n',
  'prompts/profiles/product.md': '---\nsections: [product]\n---\n',
  'agents/helper.md': '---\nname: helper\ndescription: Use it: when needed\n---\nHelp.\n',
  'prompt-build.config.json': '{\n  "constants": {\n    "PRODUCT": "Acme"\n  }\n}\n',
};

let root: string;
let server: ChildProcess;
let rpc: MessageConnection;
/** Every publishDiagnostics, in order. */
const published: Array<{ uri: string; diagnostics: PublishedDiagnostic[] }> = [];
/** How many builds the server has logged. */
let builds = 0;

/** Waits, with a deadline, for the server to log a build after the `since`-th. */
async function buildAfter(since: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (builds <= since) {
    if (Date.now() > deadline) throw new Error('no build logged');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const uri = (rel: string) => pathToFileURL(path.join(root, rel)).href;

/** Waits, with a deadline, for a publish of `rel` that `accept` takes. */
async function publishOf(rel: string, accept: (d: PublishedDiagnostic[]) => boolean, since = 0): Promise<PublishedDiagnostic[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = published.slice(since).find((p) => p.uri === uri(rel) && accept(p.diagnostics));
    if (found) return found.diagnostics;
    if (Date.now() > deadline) throw new Error(`no publish for ${rel} as expected; got ${JSON.stringify(published.filter((p) => p.uri === uri(rel)))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let version = 1;
const open = (rel: string, text: string) =>
  rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(rel), languageId: 'markdown', version: version++, text } });
const change = (rel: string, text: string) => rpc.sendNotification('textDocument/didChange', { textDocument: { uri: uri(rel), version: version++ }, contentChanges: [{ text }] });
const close = (rel: string) => rpc.sendNotification('textDocument/didClose', { textDocument: { uri: uri(rel) } });
const at = (rel: string, line: number, character: number) => ({ textDocument: { uri: uri(rel) }, position: { line, character } });

beforeAll(async () => {
  root = await fs.realpath(await tempDir());
  await writeTree(root, TREE);
  server = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  rpc = createMessageConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  rpc.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: PublishedDiagnostic[] }) => published.push(p));
  rpc.onNotification('window/logMessage', (m: { message: string }) => {
    if (m.message.startsWith('prompt-build: built in ')) builds++;
  });
  rpc.listen();
  const init = await rpc.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  expect(init.capabilities).toMatchObject({ definitionProvider: true, hoverProvider: true, documentSymbolProvider: true });
  await rpc.sendNotification('initialized', {});
  // The first build: the profile's short prefix is a warning on the profile.
  await publishOf('prompts/profiles/default.md', (d) => d.some((x) => x.code === 'cache/prefix-below-minimum'));
});

afterAll(async () => {
  if (server.exitCode === null) server.kill();
  rpc?.dispose();
});

describe('prompt-build lsp', () => {
  it('publishes the build’s diagnostics for an unsaved edit, with the rule and note, and clears them when fixed', async () => {
    const since = published.length;
    open('prompts/sections/intro.md', TREE['prompts/sections/intro.md']);
    change('prompts/sections/intro.md', 'You are careful on {{weekday}}.\n\n@../fragments/rules.md\n');
    const errors = await publishOf('prompts/sections/intro.md', (d) => d.length > 0, since);
    expect(errors[0]).toMatchObject({ severity: 1, code: 'section/static-template', range: { start: { line: 0, character: 19 } } });
    expect(errors[0]!.relatedInformation?.[0]?.message).toMatch(/dynamic/);
    const fixed = published.length;
    change('prompts/sections/intro.md', TREE['prompts/sections/intro.md']);
    await publishOf('prompts/sections/intro.md', (d) => d.length === 0, fixed);
    close('prompts/sections/intro.md');
    // The file on disk never changed.
    expect(await fs.readFile(path.join(root, 'prompts/sections/intro.md'), 'utf8')).toBe(TREE['prompts/sections/intro.md']);
  });

  it('an edit of a fragment reaches the section that includes it', async () => {
    const since = published.length;
    open('prompts/fragments/rules.md', TREE['prompts/fragments/rules.md']);
    change('prompts/fragments/rules.md', 'Read before you edit.\n\n@./missing.md\n');
    const reported = await publishOf('prompts/fragments/rules.md', (d) => d.some((x) => x.code === 'include/missing'), since);
    expect(reported.find((x) => x.code === 'include/missing')!.range.start).toEqual({ line: 2, character: 0 });
    const fixed = published.length;
    change('prompts/fragments/rules.md', TREE['prompts/fragments/rules.md']);
    await publishOf('prompts/fragments/rules.md', (d) => d.length === 0, fixed);
    close('prompts/fragments/rules.md');
  });

  it('goes from an include to its file, and from a profile’s section name to the section', async () => {
    const include = await rpc.sendRequest<{ uri: string }>('textDocument/definition', at('prompts/sections/intro.md', 2, 5));
    expect(include.uri).toBe(uri('prompts/fragments/rules.md'));
    const section = await rpc.sendRequest<{ uri: string }>('textDocument/definition', at('prompts/profiles/default.md', 3, 5));
    expect(section.uri).toBe(uri('prompts/sections/env.md'));
    expect(await rpc.sendRequest('textDocument/definition', at('prompts/sections/intro.md', 0, 3))).toBeNull();
  });

  it('hovers: a section says which cached prefixes an edit changes; an include names its file', async () => {
    const section = await rpc.sendRequest<{ contents: { value: string } }>('textDocument/hover', at('prompts/sections/intro.md', 0, 3));
    expect(section.contents.value).toContain('**intro** · static');
    expect(section.contents.value).toContain('Editing this changes the cached prefix of `default`.');
    const dynamic = await rpc.sendRequest<{ contents: { value: string } }>('textDocument/hover', at('prompts/sections/env.md', 5, 3));
    expect(dynamic.contents.value).toContain('After the boundary in `default`');
    const input = await rpc.sendRequest<{ contents: { value: string } }>('textDocument/hover', at('prompts/sections/env.md', 4, 22));
    expect(input.contents.value).toBe('`cwd`: an input of this section (`inputs:`)');
    const include = await rpc.sendRequest<{ contents: { value: string } }>('textDocument/hover', at('prompts/sections/intro.md', 2, 4));
    expect(include.contents.value).toBe('`@../fragments/rules.md` → `prompts/fragments/rules.md` · 22 bytes');
    const spare = await rpc.sendRequest<{ contents: { value: string } }>('textDocument/hover', at('prompts/sections/spare.md', 0, 2));
    expect(spare.contents.value).toContain('No profile lists this section');
  });

  it('completes section names in a profile, paths after @, inputs in {{, and frontmatter keys', async () => {
    open('prompts/profiles/default.md', '---\nsections:\n  - intro\n  - \n---\n');
    const names = await rpc.sendRequest<{ label: string }[]>('textDocument/completion', at('prompts/profiles/default.md', 3, 4));
    expect(names.map((c) => c.label)).toEqual(['env', 'intro', 'product', 'spare']);
    const closed = builds;
    close('prompts/profiles/default.md');
    // The build after closing reads the disk's text again.
    await buildAfter(closed);
    open('prompts/sections/intro.md', 'You are careful.\n\n@../fragments/\n');
    const paths = await rpc.sendRequest<{ label: string }[]>('textDocument/completion', at('prompts/sections/intro.md', 2, 14));
    expect(paths.map((c) => c.label)).toEqual(['../fragments/rules.md']);
    close('prompts/sections/intro.md');
    open('prompts/sections/env.md', '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{\n');
    const inputs = await rpc.sendRequest<{ label: string }[]>('textDocument/completion', at('prompts/sections/env.md', 4, 21));
    expect(inputs.map((c) => c.label)).toEqual(['cwd']);
    const keys = await rpc.sendRequest<{ label: string; documentation: string }[]>('textDocument/completion', at('prompts/sections/env.md', 1, 0));
    expect(keys.map((c) => c.label)).toContain('cache');
    expect(keys.find((c) => c.label === 'kind')!.documentation).toMatch(/^static: the same text for every user/);
    close('prompts/sections/env.md');
  });

  it('shows on a profile where the boundary falls and the static prefix against each model’s minimum', async () => {
    const lenses = await rpc.sendRequest<{ range: { start: { line: number } }; command: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: uri('prompts/profiles/default.md') } });
    const titles = lenses.map((l) => [l.range.start.line, l.command.title]);
    expect(titles[0]![1]).toMatch(/^static prefix ≈\d+ tokens — below claude-sonnet's 2,048: not cached$/);
    expect(titles.slice(1).map(([line, title]) => [line, String(title).replace(/\d+/, 'N')])).toEqual([
      [2, '≈N tokens · static prefix'],
      [3, '≈N tokens · after the boundary'],
    ]);
  });

  it('links includes and outlines a file', async () => {
    const links = await rpc.sendRequest<{ target: string; range: { start: { line: number; character: number } } }[]>('textDocument/documentLink', { textDocument: { uri: uri('prompts/sections/intro.md') } });
    expect(links).toEqual([{ target: uri('prompts/fragments/rules.md'), range: { start: { line: 2, character: 0 }, end: { line: 2, character: 22 } } }]);
    const symbols = await rpc.sendRequest<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri: uri('prompts/sections/env.md') } });
    expect(symbols.map((s) => s.name)).toEqual(['frontmatter']);
  });

  it('answers nothing for a file outside the prompt set, an error for an unknown request, and lives on', async () => {
    await fs.writeFile(path.join(root, 'notes.md'), '@prompts/sections/intro.md\n');
    expect(await rpc.sendRequest('textDocument/hover', at('notes.md', 0, 2))).toBeNull();
    expect(await rpc.sendRequest('textDocument/definition', { textDocument: { uri: 'untitled:Untitled-1' }, position: { line: 0, character: 0 } })).toBeNull();
    await expect(rpc.sendRequest('prompt-build/no-such-request', {})).rejects.toThrow(/Unhandled method|not found/i);
    const still = await rpc.sendRequest<{ uri: string }>('textDocument/definition', at('prompts/sections/intro.md', 2, 5));
    expect(still.uri).toBe(uri('prompts/fragments/rules.md'));
  });

  it('finds every text and profile that reaches a fragment', async () => {
    const refs = await rpc.sendRequest<{ uri: string; range: { start: { line: number; character: number } } }[]>('textDocument/references', {
      ...at('prompts/fragments/rules.md', 0, 0),
      context: { includeDeclaration: false },
    });
    expect(refs.map((r) => [r.uri, r.range.start.line, r.range.start.character])).toEqual([
      [uri('prompts/sections/intro.md'), 2, 0],
      [uri('prompts/profiles/default.md'), 2, 4],
    ]);
  });

  it('goes from {{const.X}} to the constant in the config', async () => {
    const constant = await rpc.sendRequest<{ uri: string; range: { start: { line: number; character: number } } }>('textDocument/definition', at('prompts/sections/product.md', 0, 20));
    expect(constant).toMatchObject({ uri: uri('prompt-build.config.json'), range: { start: { line: 2, character: 4 } } });
  });

  it('offers the fixes the build words: an undeclared input declared, a lenient value quoted', async () => {
    const since = published.length;
    open('prompts/sections/env.md', '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}} as {{user}}\n');
    const [undeclared] = await publishOf('prompts/sections/env.md', (d) => d.some((x) => x.code === 'section/undeclared-input'), since);
    const actions = await rpc.sendRequest<{ title: string; kind: string; edit: { changes: Record<string, { newText: string; range: { start: { line: number } } }[]> } }[]>('textDocument/codeAction', {
      textDocument: { uri: uri('prompts/sections/env.md') },
      range: undeclared!.range,
      context: { diagnostics: [undeclared] },
    });
    expect(actions.map((a) => [a.title, a.kind])).toEqual([["Declare 'user' in inputs:", 'quickfix']]);
    expect(actions[0]!.edit.changes[uri('prompts/sections/env.md')]).toEqual([{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 13 } }, newText: 'inputs: [cwd, user]' }]);
    close('prompts/sections/env.md');
    const lenient = (await publishOf('agents/helper.md', (d) => d.some((x) => x.code === 'frontmatter/lenient-yaml'))).find((x) => x.code === 'frontmatter/lenient-yaml')!;
    const quoted = await rpc.sendRequest<{ title: string; edit: { changes: Record<string, { newText: string }[]> } }[]>('textDocument/codeAction', {
      textDocument: { uri: uri('agents/helper.md') },
      range: lenient.range,
      context: { diagnostics: [lenient] },
    });
    expect(quoted[0]!.edit.changes[uri('agents/helper.md')]![0]!.newText).toBe('description: "Use it: when needed"');
  });

  it('shuts down and exits 0 when asked', async () => {
    await rpc.sendRequest('shutdown');
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    await rpc.sendNotification('exit');
    expect(await exited).toBe(0);
  });
});
