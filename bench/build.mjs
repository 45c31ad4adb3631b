// Build benchmark (issue 2): whole-process cold and warm builds of synthetic
// trees against two floors measured in the same run:
//   (a) reading every file + sha256;
//   (b) the naive build: reading every file + gray-matter + remark-parse of every body;
// and a peer, Eleventy 3.1.8 rendering the same tree's Markdown to HTML (bench/eleventy.config.mjs), whole process,
// its runs paired with the cold builds, the pair's order alternating.
// Every figure is the median of `runs` runs (3 by default), the floors' as the builds'.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import matter from 'gray-matter';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { generateTree } from '../test/helpers/generate-tree.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export async function benchBuild({ files, runs = 3 }) {
  const root = await ensureTree(files);
  const sources = await listSources(root);
  const floorA = await median(runs, () => readAndHash(sources));
  const floorB = await median(runs, () => naiveParse(sources));
  const cacheDir = path.join(root, 'node_modules/.cache/prompt-build');
  const out = path.join(root, 'dist');
  const cold = [];
  const warm = [];
  const eleventy = [];
  const eleventyOut = path.join(root, '..', `.eleventy-out-${files}`);
  for (let i = 0; i < runs; i++) {
    // Both tools' outputs are removed together, before the pair: on this machine a burst of file creations
    // and deletions slows the next ones for seconds, so a removal just before one tool's run and not the
    // other's would weigh on one of them only. For the same reason the pair's order alternates.
    await fs.rm(cacheDir, { recursive: true, force: true });
    await fs.rm(out, { recursive: true, force: true });
    await fs.rm(eleventyOut, { recursive: true, force: true });
    if (i % 2 === 0) {
      cold.push(await buildProcess(root));
      eleventy.push(await eleventyProcess(root, eleventyOut));
    } else {
      eleventy.push(await eleventyProcess(root, eleventyOut));
      cold.push(await buildProcess(root));
    }
    warm.push(await buildProcess(root));
  }
  await fs.rm(eleventyOut, { recursive: true, force: true });
  const coldMs = medianOf(cold.map((r) => r.ms));
  const warmMs = medianOf(warm.map((r) => r.ms));
  const eleventyMs = medianOf(eleventy);
  return {
    eleventyMs,
    coldVsEleventy: coldMs / eleventyMs,
    files: sources.length,
    floorAMs: floorA,
    floorBMs: floorB,
    coldMs,
    warmMs,
    coldVsB: coldMs / floorB,
    warmVsA: warmMs / floorA,
    peakRssMb: Math.max(...cold.map((r) => r.maxRssKb), ...warm.map((r) => r.maxRssKb)) / 1024,
  };
}

export async function ensureTree(files) {
  const root = path.join(HERE, '.trees', `tree-${files}`);
  try {
    await fs.access(path.join(root, '.complete'));
  } catch {
    await fs.rm(root, { recursive: true, force: true });
    await generateTree(root, { files, seed: 42 });
    await fs.writeFile(path.join(root, '.complete'), '');
  }
  return root;
}

export async function listSources(root) {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.parentPath.includes('dist') && !e.parentPath.includes('node_modules'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

async function readAndHash(files) {
  await Promise.all(files.map(async (f) => createHash('sha256').update(await fs.readFile(f)).digest('hex')));
}

export async function naiveParse(files) {
  const processor = unified().use(remarkParse);
  for (const f of files) {
    const text = await fs.readFile(f, 'utf8');
    processor.parse(matter(text, {}).content);
  }
}

export function buildProcess(root) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(process.execPath, [path.join(HERE, 'build-child.mjs'), 'build', '--root', root], { maxBuffer: 1 << 24 }, (error, stdout) => {
      if (error) return reject(error);
      const { code, maxRssKb } = JSON.parse(stdout.trimEnd().split('\n').at(-1));
      if (code !== 0) return reject(new Error(`build exited ${code}`));
      resolve({ ms: performance.now() - started, maxRssKb });
    });
  });
}

/** Eleventy's whole process on the tree, writing its HTML to `outDir` (left for the caller to remove). */
function eleventyProcess(root, outDir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const cli = path.join(HERE, '..', 'node_modules/@11ty/eleventy/cmd.cjs');
    execFile(process.execPath, [cli, `--config=${path.join(HERE, 'eleventy.config.mjs')}`, `--input=${root}`, `--output=${outDir}`, '--quiet'], { maxBuffer: 1 << 24 }, (error) => {
      if (error) return reject(error);
      resolve(performance.now() - started);
    });
  });
}

export async function median(runs, fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return medianOf(times);
}

export function medianOf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const files of (process.argv[2] ?? '1000').split(',').map(Number)) console.log(await benchBuild({ files, runs: 3 }));
}
