// Lint benchmark (issue 30): `prompt-build lint` with the built-in rules on a
// generated tree, a whole cold process (no parse cache), against floor (b)
// of bench/build.mjs measured in the same run — reading every file,
// gray-matter and remark-parse of every body, in process — which is what
// building a tree for every file would cost at the least. Target at 10,000
// files: ≤ 1× (the rules read what the build compiled, and build no tree).
//
//   node bench/lint.mjs [files] [runs]     standalone, default 10,000 files, 3 runs
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTree, listSources, median, medianOf, naiveParse } from './build.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export async function benchLint({ files, runs = 3 }) {
  const root = await ensureTree(files);
  const floorBMs = await median(runs, async () => naiveParse(await listSources(root)));
  const times = [];
  for (let i = 0; i < runs; i++) {
    await fs.rm(path.join(root, 'node_modules/.cache/prompt-build'), { recursive: true, force: true });
    times.push(await lintProcess(root));
  }
  const ms = medianOf(times);
  return { files, ms, floorBMs, ratio: ms / floorBMs };
}

/** One cold `lint` process; its exit code is 0 or 1 (findings), anything else is a failure of the benchmark. */
function lintProcess(root) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(process.execPath, [path.join(HERE, 'build-child.mjs'), 'lint', '--root', root], { maxBuffer: 1 << 24 }, (error, stdout) => {
      if (error) return reject(error);
      const { code } = JSON.parse(stdout.trimEnd().split('\n').at(-1));
      if (code !== 0 && code !== 1) return reject(new Error(`lint exited ${code}`));
      resolve(performance.now() - started);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchLint({ files: Number(process.argv[2] ?? 10000), runs: Number(process.argv[3] ?? 3) }));
