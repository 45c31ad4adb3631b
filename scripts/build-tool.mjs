// `npm run build:tool`: compiles compiler/ into lib/ (tsc: the library, its
// types, the runtime), then bundles the command line and its threads into lib/bin/ (rolldown),
// and writes the tool's fingerprint (core/version.ts).
//
// Why a bundle: Node resolves, reads and compiles every ES module file
// separately, and the command loads about 250 of them (micromark alone is
// over 60). One file per entry, with the lazily loaded stages kept as their
// own chunks, halves the parse stack's load (measured: 118 → 53 ms) and takes
// about 0.19 s off a cold build of 1,000 files; the worker threads gain as
// much, each loading its modules anew.
//
// The bundle lives two folders below the package root, as lib/cli/ does: the
// code finds package.json (`../../package.json`) and the embedded dist/
// relatively. The threads' files (parsing, counting, writing artifacts) are
// entries of their own beside the chunks that start them, where
// `new URL('./parse-worker.js', import.meta.url)` looks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIB = path.join(ROOT, 'lib');
const BIN = path.join(LIB, 'bin');

execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.json')], { stdio: 'inherit' });

fs.rmSync(BIN, { recursive: true, force: true });
await build({
  input: {
    'prompt-build': path.join(LIB, 'cli/bin.js'),
    'parse-worker': path.join(LIB, 'incremental/parse-worker.js'),
    'count-worker': path.join(LIB, 'tokens/count-worker.js'),
    'artifact-thread': path.join(LIB, 'write/artifact-thread.js'),
  },
  platform: 'node',
  // Loaded from where the user installed them: jiti reads its own files lazily, the telemetry API is an optional
  // peer, and the tokenizer's cost is compiling its 2.4 MB table of ranks, which a bundle would not lower.
  external: [/^jiti(\/|$)/, /^@opentelemetry\//, /^gpt-tokenizer(\/|$)/],
  // gray-matter's `js` engine evaluates front matter; the build never uses it (markdown/source.ts names its own engines).
  onLog(level, log, report) {
    if (!(log.code === 'EVAL' && log.id?.includes('/gray-matter/'))) report(level, log);
  },
  output: { dir: BIN, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
});
fs.chmodSync(path.join(BIN, 'prompt-build.js'), 0o755);
// The unbundled command stays runnable: `npx` keeps, per project folder, a link to the `bin` it found the first
// time, and a clone that ran it before the bundle existed still goes through lib/cli/bin.js.
fs.chmodSync(path.join(LIB, 'cli/bin.js'), 0o755);

// The tokenizer's ranks as JSON, beside both copies of the counter that reads them (tokens/o200k.ts says why).
const { RANKS_JSON } = await import(path.join(LIB, 'tokens/o200k.js'));
const ranks = JSON.stringify((await import('gpt-tokenizer/bpeRanks/o200k_base')).default);
for (const dir of [path.join(LIB, 'tokens'), BIN]) fs.writeFileSync(path.join(dir, RANKS_JSON), ranks);

// Last, over every compiled file, the bundle's included: the fingerprint keys the build caches.
const { writeFingerprint, FINGERPRINT_NAME } = await import(path.join(LIB, 'core/version.js'));
writeFingerprint();
fs.copyFileSync(path.join(LIB, 'core', FINGERPRINT_NAME), path.join(BIN, FINGERPRINT_NAME));
