// Language server benchmark (issue 31): `prompt-build lsp` on a generated
// tree where 50 sections include one fragment, driven over stdio as an editor drives it. Reports the time from
// spawning the server to its first build's diagnostics, and the time from a
// one-character `didChange` to the server's answer (its diagnostics sent and
// the build logged) for a section and for the fragment the most sections
// include; the server's peak RSS. Targets: an edit answered in < 100 ms on
// the 10,000-file tree; the first diagnostics within the cold build's time.
//
//   node bench/lsp.mjs [files]     standalone, default 10,000 files
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { ensureTree } from './build.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `root`: another tree than the generated one of `files` files where 50 sections include one fragment (`fanInTree`). */
export async function benchLsp({ files, edits = 9, root: given }) {
  const root = given ?? (await fanInTree(files));
  const { section, fragment, includers } = await editTargets(root);

  const started = performance.now();
  const server = spawn(process.execPath, [path.join(HERE, '..', 'lib/bin/prompt-build.js'), 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const rpc = createMessageConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  let builds = 0;
  let waiting = null;
  rpc.onNotification('window/logMessage', (m) => {
    if (!m.message.startsWith('prompt-build: built in ')) return;
    builds++;
    waiting?.();
  });
  rpc.listen();
  const nextBuild = (since) => new Promise((resolve) => {
    waiting = () => builds > since && resolve(performance.now());
    waiting();
  });
  try {
    await rpc.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
    await rpc.sendNotification('initialized', {});
    const firstMs = (await nextBuild(0)) - started;

    let version = 1;
    const timeEdits = async (rel) => {
      const uri = pathToFileURL(path.join(root, rel)).href;
      const text = await fs.readFile(path.join(root, rel), 'utf8');
      let since = builds;
      await rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: version++, text } });
      await nextBuild(since);
      const times = [];
      for (let i = 0; i < edits; i++) {
        since = builds;
        const sent = performance.now();
        await rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: version++ }, contentChanges: [{ text: `${text}${'x'.repeat(i + 1)}\n` }] });
        times.push((await nextBuild(since)) - sent);
      }
      await rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
      return median(times);
    };
    const sectionMs = await timeEdits(section);
    const fragmentMs = await timeEdits(fragment);
    const peakRssMb = await peakRss(server.pid);
    return { firstMs, sectionMs, fragmentMs, includers, peakRssMb };
  } finally {
    server.kill();
    rpc.dispose();
  }
}

/**
 * The generated tree of `files` files, copied, with an include of the
 * fragment the most sections include added to static sections until
 * `includers` sections include it (the issue's edit of a shared fragment).
 */
export async function fanInTree(files, includers = 50) {
  const root = path.join(HERE, '.trees', `tree-${files}-fan-in-${includers}`);
  if (await fs.access(path.join(root, '.complete')).then(() => true, () => false)) return root;
  const source = await ensureTree(files);
  await fs.rm(root, { recursive: true, force: true });
  await fs.cp(path.join(source, 'prompts'), path.join(root, 'prompts'), { recursive: true });
  const { fragment, includers: already } = await editTargets(root);
  const sections = (await fs.readdir(path.join(root, 'prompts/sections'))).filter((f) => f.endsWith('.md')).sort();
  let count = already;
  for (const name of sections) {
    if (count >= includers) break;
    const file = path.join(root, 'prompts/sections', name);
    const text = await fs.readFile(file, 'utf8');
    if (/^kind: dynamic$/m.test(text) || text.includes(path.basename(fragment))) continue;
    await fs.writeFile(file, `${text}\n@${path.relative(path.dirname(file), path.join(root, fragment))}\n`);
    count++;
  }
  await fs.writeFile(path.join(root, '.complete'), '');
  return root;
}

/** A section nothing includes, and the fragment the most sections include (counted by its directives). */
async function editTargets(root) {
  const sections = (await fs.readdir(path.join(root, 'prompts/sections'), { recursive: true })).filter((f) => f.endsWith('.md')).sort();
  const includers = new Map();
  for (const rel of sections) {
    const text = await fs.readFile(path.join(root, 'prompts/sections', rel), 'utf8');
    for (const m of text.matchAll(/@(\.{1,2}\/[^\s]+\.md)/g)) {
      const target = path.relative(root, path.resolve(path.dirname(path.join(root, 'prompts/sections', rel)), m[1]));
      includers.set(target, (includers.get(target) ?? 0) + 1);
    }
  }
  const [fragment, count] = [...includers].filter(([f]) => f.startsWith('prompts/fragments/')).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  const section = `prompts/sections/${sections.find((s) => !includers.has(`prompts/sections/${s}`))}`;
  return { section, fragment, includers: count };
}

async function peakRss(pid) {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

//   node bench/lsp.mjs [files] [root]
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = Number(process.argv[2] ?? 10000);
  console.log(JSON.stringify(await benchLsp({ files, ...(process.argv[3] ? { root: path.resolve(process.argv[3]) } : {}) })));
}
