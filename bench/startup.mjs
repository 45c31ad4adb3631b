// Start-up (issue 13): whole `prompt-build` processes on this repository —
// a build that finds nothing changed, and `render` of the default profile —
// against `node -e 0` in the same run, medians of `runs` each, alternated so
// a slow moment of the machine falls on all three alike.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'lib/bin/prompt-build.js');

export async function benchStartup({ runs = 15 } = {}) {
  const time = (args) => {
    const started = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd: REPO, stdio: 'ignore' });
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  // Once first: the stamp is written, so every timed build finds nothing changed.
  time([BIN, '--root', REPO]);
  const node = [];
  const build = [];
  const render = [];
  for (let i = 0; i < runs; i++) {
    node.push(time(['-e', '0']));
    build.push(time([BIN, '--root', REPO]));
    render.push(time([BIN, 'render', '--root', REPO, '--cwd', REPO]));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const nodeMs = median(node);
  return { nodeMs, buildMs: median(build), renderMs: median(render), buildRatio: median(build) / nodeMs, renderRatio: median(render) / nodeMs };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await benchStartup());
