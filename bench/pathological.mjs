/**
 * Pathological shapes (issue 12): inputs the default limits accept, built as
 * a user builds them — one `lib/bin/prompt-build.js` process each — with its time and
 * peak RSS. The target: every one in under 5 s and 1 GiB.
 *
 *   node bench/pathological.mjs            every shape, a table on stdout
 *   node bench/pathological.mjs SHAPE DIR  write one shape's tree into DIR (to profile it)
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;
const PROFILE = '---\nsections: [s]\n---\n';

/**
 * Each shape: its files, the extra CLI arguments it is built with, and the
 * rule of the diagnostic it must be refused with (exit 1), if it must be.
 * The section is `prompts/sections/s.md`, the one profile lists it.
 */
export const SHAPES = {
  /** Five levels of ten includes each: 100,000 copies of the leaf, just under the 1 MiB expanded-size limit. */
  'fan-out at the expanded-size limit': () => fanOut({ levels: 5, width: 10, leaf: 'leaf text' }),
  /** The same twenty wide (3.2 million copies): stopped early by the expanded-size guard. */
  'fan-out far over the limit (refused)': () => ({ ...fanOut({ levels: 5, width: 20, leaf: 'leaf text' }), refused: 'include/too-large-expanded' }),
  /** One list nested as deep as 1 MiB allows (about 720 levels), an include in its deepest item: refused past 100 levels. */
  '1 MiB of nested lists, one deep list (refused)': () => ({ ...nestedList({ bytes: MiB - 4096, deep: true }), refused: 'source/nesting-too-deep' }),
  /** Many lists nested ten deep, an include in each. */
  '1 MiB of nested lists, many ten-deep lists': () => nestedList({ bytes: MiB - 4096, deep: false }),
  /** `- @../x.md` lines: 95,000 list items, an include in each, cut into as many parts to tokenize. */
  '1 MiB of one-line list items, an include in each': () => ({
    files: { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': '- @../x.md\n'.repeat(95_000), 'prompts/x.md': 'x\n' },
    args: [],
  }),
  /** One quoted paragraph continued by 1 MiB of lines without `>` (200,000 lazy lines): refused once their work passes the limit. */
  '1 MiB of lazy continuation lines in a quote (refused)': () => ({
    files: { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': `> quote @../x.md\n${'lazy\n'.repeat(200_000)}`, 'prompts/x.md': 'x\n' },
    args: [],
    refused: 'source/too-many-lazy-lines',
  }),
  /** 130 quoted paragraphs of 1,500 lazy lines each (about 1 MiB): each well within the limit, their sum not. */
  '1 MiB of lazy lines in many short quotes (refused)': () => ({
    files: { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': `> quote @../x.md\n${'lazy\n'.repeat(1_500)}\n`.repeat(130), 'prompts/x.md': 'x\n' },
    args: [],
    refused: 'source/too-many-lazy-lines',
  }),
  /** 250,000 `*a*` pairs in one paragraph with an include: refused past the emphasis limit (micromark's splices: minutes). */
  '1 MiB of emphasis in one paragraph (refused)': () => ({
    files: { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': `See @../x.md ${'*a* '.repeat(250_000)}\n`, 'prompts/x.md': 'x\n' },
    args: [],
    refused: 'source/too-much-markup',
  }),
  /** A million characters without white space: the token counters count the run in slices (whole, its merging took minutes). */
  '1 MiB without white space': () => ({
    files: { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': `${'[a'.repeat(500_000)}\n` },
    args: ['--model', 'gpt-4o'],
  }),
  /** One paragraph of 500,000 short lines after an include: refused past 100,000 lines (tokenized whole: 9.7 s, 2 GB). */
  '1 MiB of one paragraph\'s lines (refused)': () => ({
    files: { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': `@../x.md\n${'x\n'.repeat(500_000)}`, 'prompts/x.md': 'x\n' },
    args: [],
    refused: 'source/block-too-long',
  }),
  /** Five paragraphs of 90,000 lines, each within the block limit, their sum not. */
  '1 MiB of long paragraphs (refused)': () => ({
    files: { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': `@../x.md\n${'x\n'.repeat(90_000)}\n`.repeat(5), 'prompts/x.md': 'x\n' },
    args: [],
    refused: 'source/block-too-long',
  }),
  /** `@../x.md ` over and over: 1 MiB of include tokens (116,000 includes). */
  '1 MiB of include tokens': () => includeTokens({ bytes: MiB - 4096 }),
  /** A chain of 1,000 fragments, each including the next (depth limit raised): its map lists 500,000 chain entries. */
  '1,000-level include chain (--max-include-depth 1001)': () => chain({ length: 1000 }),
  /** The same 10,000 deep: its map would be 1.4 GB, refused by the map bound. */
  '10,000-level include chain (--max-include-depth 10001, refused)': () => ({ ...chain({ length: 10000 }), refused: 'include/too-large-expanded' }),
};

function fanOut({ levels, width, leaf }) {
  const files = { 'prompts/profiles/p.md': PROFILE };
  const line = (target) => Array.from({ length: width }, () => `@${target}`).join('\n');
  files['prompts/sections/s.md'] = `${line('../fragments/f1.md')}\n`;
  for (let i = 1; i < levels; i++) files[`prompts/fragments/f${i}.md`] = `${line(`./f${i + 1}.md`)}\n`;
  files[`prompts/fragments/f${levels}.md`] = `${leaf}\n`;
  return { files, args: [] };
}

function nestedList({ bytes, deep }) {
  const lines = [];
  let size = 0;
  const push = (line) => {
    lines.push(line);
    size += line.length + 1;
  };
  if (deep) {
    for (let depth = 0; size < bytes - 2 * depth - 20; depth++) push(`${'  '.repeat(depth)}- item ${depth}`);
    push(`${'  '.repeat(lines.length)}- @../x.md`);
  } else {
    while (size < bytes - 400) {
      for (let depth = 0; depth < 10; depth++) push(`${'  '.repeat(depth)}- item at depth ${depth}`);
      push(`${'  '.repeat(10)}- see @../x.md`);
    }
  }
  return { files: { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': `${lines.join('\n')}\n`, 'prompts/x.md': 'x\n' }, args: [] };
}

function includeTokens({ bytes }) {
  const token = '@../x.md ';
  return {
    files: {
      'prompts/profiles/p.md': PROFILE,
      'prompts/sections/s.md': `${token.repeat(Math.floor(bytes / token.length))}\n`,
      'prompts/x.md': 'x\n',
    },
    args: [],
  };
}

function chain({ length }) {
  const files = { 'prompts/profiles/p.md': PROFILE, 'prompts/sections/s.md': 'start\n@../fragments/f0.md\n' };
  for (let i = 0; i < length; i++) files[`prompts/fragments/f${i}.md`] = i + 1 < length ? `level ${i}\n@./f${i + 1}.md\n` : `level ${i}\n`;
  return { files, args: ['--max-include-depth', String(length + 1)] };
}

async function writeShape(dir, { files }) {
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
}

/** One cold build of `dir` as a process: wall time, peak RSS, exit code and the first line of its report. */
function buildProcess(dir, args) {
  const bin = path.join(HERE, '..', 'lib/bin/prompt-build.js');
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(HERE, 'peak-rss.mjs'), bin, 'build', '--root', dir, '--no-cache', '--reporter', 'json', ...args],
      { maxBuffer: 256 * MiB },
      (error, stdout, stderr) => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const rss = /peak-rss-kb (\d+)/.exec(stderr);
        const report = safeJson(stdout);
        resolve({
          ms,
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          peakRssMb: rss ? Number(rss[1]) / 1024 : NaN,
          rules: report?.diagnostics?.map((d) => d.rule) ?? [stderr.trim().split('\n')[0]],
        });
      },
    );
  });
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function benchPathological() {
  const rows = [];
  for (const [name, make] of Object.entries(SHAPES)) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pb-patho-'));
    try {
      const shape = make();
      await writeShape(dir, shape);
      const bytes = Object.values(shape.files).reduce((n, t) => n + Buffer.byteLength(t), 0);
      const run = await buildProcess(dir, shape.args);
      const expected = shape.refused ? run.code === 1 && run.rules.includes(shape.refused) : run.code === 0;
      rows.push({ name, bytes, ...run, expected });
      console.error(`${name}: ${Math.round(run.ms)} ms, ${Math.round(run.peakRssMb)} MB, exit ${run.code} ${[...new Set(run.rules)].join(' ')}${expected ? '' : ' — NOT AS EXPECTED'}`);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [shape, dir] = process.argv.slice(2);
  if (shape) {
    const make = SHAPES[shape] ?? SHAPES[Object.keys(SHAPES).find((k) => k.includes(shape))];
    await writeShape(path.resolve(dir), make());
    console.log(`wrote ${shape} into ${dir}; build with ${make().args.join(' ')}`);
  } else {
    const rows = await benchPathological();
    console.log('| shape | sources | exit | time | peak RSS |\n|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.name} | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.code}${r.expected ? '' : ' (unexpected)'} | ${Math.round(r.ms).toLocaleString('en')} ms | ${Math.round(r.peakRssMb)} MB |`);
  }
}
