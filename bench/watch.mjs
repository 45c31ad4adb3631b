// Watch benchmark (issue 6, acceptance 4): the time from a source edit to a
// finished incremental rebuild — `compiler.build([change])` then `writeBundle`,
// what `prompt-build watch` does after its debounce — against a cold build of
// the same tree in the same run. Targets: a fragment edit ≤ 2% of the cold
// build; a leaf edit touching one section under 50 ms (medians).
//
//   node bench/watch.mjs [ROOT]     (default: a generated 10,000-file tree)
//
// Reads the compiled compiler in lib/ (`npx tsc -p tsconfig.json` first). The
// tree is edited and restored; the bundle goes to a scratch directory.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCompiler, writeBundle } from '../lib/index.js';
import { generateTree } from '../test/helpers/generate-tree.mjs';

const HERE = fileURLToPath(import.meta.url);

/**
 * Medians over `edits` edits of each kind: `coldMs` (fresh compiler, no parse
 * cache, build + write, each in a process of its own), `incrementalMs` (a
 * fragment included by sections), `leafMs` (a section in a profile that
 * nothing includes), `ratio` (incremental / cold), and `pausedLeafMs` (leaf
 * edits made `PAUSE_MS` after the last rebuild, as an author saves, where
 * the others follow one another at once), and `commitFloorMs`, what writing
 * and renaming the `commitMegabytes` every edit replaces takes by itself
 * (timed after each leaf edit). The edits are made in
 * one session of a fresh process, as in `prompt-build watch`: one compiler,
 * its first build then the rebuilds — not in a process still holding the
 * garbage of other benchmarks.
 */
export function benchWatch({ root, coldRuns = 3, edits = 9, pausedEdits = 5 }) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [HERE, '--session', root, String(coldRuns), String(edits), String(pausedEdits)], (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout)),
    );
  });
}

/** The pause before each of the paused edits. */
export const PAUSE_MS = 3000;

async function watchSession({ root, coldRuns, edits, pausedEdits }) {
  const outDir = await fs.mkdtemp(path.join(root, '.bench-watch-'));
  const floorDir = await fs.mkdtemp(path.join(root, '.bench-watch-floor-'));
  const originals = new Map();
  try {
    const cold = [];
    for (let run = 0; run < coldRuns; run++) {
      await fs.rm(outDir, { recursive: true, force: true });
      cold.push(await coldBuildProcess(root, outDir));
    }
    const compiler = await createCompiler({ root, outDir, cacheDir: null });
    const first = await compiler.build();
    let written = (await writeBundle(outDir, first.bundle.files)).state;
    const manifest = JSON.parse(written.files.get('manifest.json'));
    const { fragments, leaves } = editTargets(manifest);
    if (fragments.length === 0 || leaves.length === 0) throw new Error(`the tree at ${root} has no included fragment or no leaf section to edit`);

    const rebuild = async (rel, i) => {
      const file = path.join(compiler.options.root, rel);
      if (!originals.has(file)) originals.set(file, await fs.readFile(file));
      await fs.appendFile(file, `\nEdited in run ${i}.\n`);
      const started = performance.now();
      const result = await compiler.build([{ path: file, kind: 'change' }]);
      if (!result.bundle) throw new Error(`the edit of ${rel} broke the build`);
      written = (await writeBundle(outDir, result.bundle.files, written)).state;
      return performance.now() - started;
    };
    await rebuild(leaves[0], -1); // warm-up: the first incremental build compiles the watch path
    const fragmentTimes = [];
    const leafTimes = [];
    for (let i = 0; i < edits; i++) {
      fragmentTimes.push(await rebuild(pick(fragments, i, edits), i));
      leafTimes.push(await rebuild(pick(leaves, i, edits), i));
    }
    // After the edits, not between them: the floor's dirty pages, written back meanwhile, would slow the next edit.
    const commitTimes = [];
    const committed = COMMITTED.map((rel) => Buffer.from(written.files.get(rel)));
    for (let i = 0; i < edits; i++) commitTimes.push(await commitFloor(floorDir, committed));
    // Edits as an author makes them, seconds apart: what the VM's memory does meanwhile shows (docs/benchmarks.md#method).
    const pausedTimes = [];
    for (let i = 0; i < pausedEdits; i++) {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      pausedTimes.push(await rebuild(pick(leaves, i, pausedEdits), edits + i));
    }
    const coldMs = median(cold);
    const incrementalMs = median(fragmentTimes);
    return {
      sources: Object.keys(manifest.sources).length,
      coldMs,
      incrementalMs,
      leafMs: median(leafTimes),
      commitFloorMs: median(commitTimes),
      commitMegabytes: committed.reduce((sum, bytes) => sum + bytes.length, 0) / 1e6,
      pausedLeafMs: pausedEdits > 0 ? median(pausedTimes) : null,
      ratio: incrementalMs / coldMs,
    };
  } finally {
    await Promise.all([...originals].map(([file, bytes]) => fs.writeFile(file, bytes)));
    await fs.rm(outDir, { recursive: true, force: true });
    await fs.rm(floorDir, { recursive: true, force: true });
  }
}

/** The files every edit replaces, whatever it changed. */
const COMMITTED = ['bundle.mjs', 'manifest.json'];

/**
 * A leaf edit's floor: the bytes of the files every edit replaces, encoded
 * once (the writer keeps its pieces' bytes too), each written in one call to a
 * temporary file, side by side, and renamed over the last one, as the writer
 * commits them — no compiler, no lock, no journal.
 */
async function commitFloor(dir, bytes) {
  const started = performance.now();
  await Promise.all(COMMITTED.map((rel, i) => writeWhole(path.join(dir, `${rel}.tmp`), bytes[i])));
  const replaced = [];
  for (const rel of COMMITTED) {
    const file = path.join(dir, rel);
    // As the writer does: the replaced file is held open, so freeing its blocks comes after, not inside the rename.
    replaced.push(await fs.open(file).catch(() => null));
    await fs.rename(`${file}.tmp`, file);
  }
  const elapsed = performance.now() - started;
  await Promise.all(replaced.map((handle) => handle?.close()));
  return elapsed;
}

/** One `writev` call, as the writer makes (`fs.writeFile` would write a large buffer in many small writes). */
async function writeWhole(file, buffer) {
  const handle = await fs.open(file, 'w');
  try {
    await handle.writev([buffer]);
  } finally {
    await handle.close();
  }
}

/**
 * From the manifest's dependency graph: fragments some other source includes,
 * and leaves — sections in a profile that no other source includes, so an edit
 * reaches exactly one emitted section. Sorted, so runs edit the same files.
 */
function editTargets(manifest) {
  const included = new Set(Object.values(manifest.sources).flatMap((s) => s.includes));
  const fragments = [...included].filter((rel) => rel.startsWith('prompts/fragments/')).sort();
  const inProfiles = new Set(Object.values(manifest.profiles).flatMap((p) => p.sections.map((s) => s.source)));
  const leaves = [...inProfiles].filter((rel) => !included.has(rel)).sort();
  return { fragments, leaves };
}

/** Evenly spread over the list. */
function pick(list, i, n) {
  return list[Math.floor(((i + 0.5) * list.length) / n)];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A cold build and write in a fresh process, timed there: compile and write, not Node's start-up. */
function coldBuildProcess(root, outDir) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [HERE, '--cold', root, outDir], (error, stdout) => (error ? reject(error) : resolve(Number(stdout))));
  });
}

async function coldBuild(root, outDir) {
  const started = performance.now();
  const compiler = await createCompiler({ root, outDir, cacheDir: null });
  const result = await compiler.build();
  if (!result.bundle) throw new Error(`the tree at ${root} does not build: ${result.diagnostics.find((d) => d.severity === 'error')?.message}`);
  await writeBundle(outDir, result.bundle.files);
  return performance.now() - started;
}

if (process.argv[2] === '--cold') {
  process.stdout.write(String(await coldBuild(process.argv[3], process.argv[4])));
} else if (process.argv[2] === '--session') {
  const [root, coldRuns, edits, pausedEdits] = process.argv.slice(3);
  process.stdout.write(JSON.stringify(await watchSession({ root, coldRuns: Number(coldRuns), edits: Number(edits), pausedEdits: Number(pausedEdits) })));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  let root = process.argv[2];
  if (!root) {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'pb-watch-bench-'));
    await generateTree(root, { files: 10000, seed: 42 });
  }
  console.log(await benchWatch({ root }));
}
