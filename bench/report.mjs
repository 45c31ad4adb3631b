// Report generation for a generated tree: reading the bundle (every text,
// source map and hash check), the report's data, and the HTML page, each a
// median of three in-process runs; with the page's size.
//
//   node bench/report.mjs [files]     standalone, default 10,000 files
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCompiler, writeBundle } from '../lib/index.js';
import { readBundleArg } from '../lib/cli/read-bundle.js';
import { reportHtml } from '../lib/report/html/page.js';
import { costFactsFor } from '../lib/report/model-facts.js';
import { reportData } from '../lib/report/report-data.js';
import { generateTree } from '../test/helpers/generate-tree.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export async function benchReport({ files, runs = 3 }) {
  const dist = await ensureBundle(files);
  const models = ['claude-sonnet', 'gpt-5'].map((model) => costFactsFor(model));
  const samples = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const contents = await readBundleArg(dist);
    const t1 = performance.now();
    const data = reportData(contents, models);
    const t2 = performance.now();
    const html = reportHtml(data);
    const t3 = performance.now();
    bytes = Buffer.byteLength(html);
    samples.push({ readMs: t1 - t0, dataMs: t2 - t1, htmlMs: t3 - t2 });
  }
  const median = (key) => samples.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  const readMs = median('readMs');
  const dataMs = median('dataMs');
  const htmlMs = median('htmlMs');
  return { readMs, dataMs, htmlMs, totalMs: readMs + dataMs + htmlMs, megabytes: bytes / 1e6 };
}

/** The bench tree's bundle (built by the build benchmark, or here when it is missing). */
async function ensureBundle(files) {
  const root = path.join(HERE, '.trees', `tree-${files}`);
  const dist = path.join(root, 'dist');
  if (await fs.access(path.join(dist, 'manifest.json')).then(() => true, () => false)) return dist;
  if (!(await fs.access(path.join(root, '.complete')).then(() => true, () => false))) {
    await fs.rm(root, { recursive: true, force: true });
    await generateTree(root, { files, seed: 42 });
    await fs.writeFile(path.join(root, '.complete'), '');
  }
  const compiler = await createCompiler({ root, outDir: dist, cacheDir: null });
  const result = await compiler.build();
  if (!result.bundle) throw new Error(`the tree at ${root} does not build`);
  await writeBundle(dist, result.bundle.files);
  return dist;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchReport({ files: Number(process.argv[2] ?? 10000) }));
}
