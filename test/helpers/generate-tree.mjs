/**
 * A seeded generator of synthetic prompt trees for benchmarks: sections,
 * fragments, profiles and agents of 1–8 KB each, with includes (some nested),
 * code fences holding `@decorators`, e-mail addresses, maintainer comments
 * and dynamic sections. Same seed and size → the same tree, byte for byte.
 *
 *   node test/helpers/generate-tree.mjs DIR FILES [SEED]
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export async function generateTree(root, { files, seed = 1 }) {
  const rand = mulberry32(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const out = new Map();
  const nFragments = Math.round(files * 0.25);
  const nAgents = Math.max(1, Math.round(files * 0.04));
  const nProfiles = Math.max(1, Math.round(files / 100));
  const nSections = files - nFragments - nAgents - nProfiles;

  const fragments = [];
  for (let i = 0; i < nFragments; i++) {
    const name = `frag-${pad(i)}`;
    fragments.push(name);
    // A fragment may include an earlier one: chains stay acyclic and shallow.
    const include = i > 10 && rand() < 0.2 ? `\n@./${pick(fragments.slice(Math.max(0, i - 10), i))}.md\n` : '';
    out.set(`prompts/fragments/${name}.md`, `${prose(rand, 1024 + rand() * 7168)}${include}`);
  }
  const statics = [];
  const dynamics = [];
  for (let i = 0; i < nSections; i++) {
    const name = `section-${pad(i)}`;
    const dynamic = rand() < 0.2;
    const parts = [prose(rand, 512 + rand() * 3584)];
    if (rand() < 0.3) parts.push(codeFence(rand));
    if (rand() < 0.25) parts.push(`@../fragments/${pick(fragments)}.md`);
    if (rand() < 0.1) parts.push('<!-- maintainers: keep this short -->');
    parts.push(prose(rand, 256 + rand() * 2048));
    if (dynamic) {
      dynamics.push(name);
      parts.push('- Working directory: {{cwd}}\n{{#if language}}\nAnswer in {{language}}.\n{{/if}}\n{{#each servers}}\n## {{name}}\n{{instructions}}\n{{/each}}');
      out.set(`prompts/sections/${name}.md`, `---\nkind: dynamic\ninputs: [cwd]\noptional: [language, servers]\n---\n${parts.join('\n\n')}\n`);
    } else {
      statics.push(name);
      out.set(`prompts/sections/${name}.md`, `---\ndescription: synthetic section ${i}\n---\n${parts.join('\n\n')}\n`);
    }
  }
  // Every section is in exactly one profile (round robin), static ones first.
  for (let i = 0; i < nProfiles; i++) {
    const mine = (list) => list.filter((_, j) => j % nProfiles === i);
    const list = [...mine(statics), ...mine(dynamics)].map((s) => `  - ${s}`).join('\n');
    out.set(`prompts/profiles/profile-${pad(i)}.md`, `---\ndescription: synthetic profile ${i}\nsections:\n${list}\n---\n`);
  }
  for (let i = 0; i < nAgents; i++) {
    const include = rand() < 0.5 ? `\n@../prompts/fragments/${pick(fragments)}.md\n` : '';
    out.set(
      `agents/agent-${pad(i)}.md`,
      `---\nname: agent-${pad(i)}\ndescription: Synthetic agent ${i}\ntools: Read, Grep, Glob\nmodel: inherit\n---\n${prose(rand, 1024 + rand() * 3072)}${include}`,
    );
  }
  for (const [rel, text] of out) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
  return { files: out.size, bytes: [...out.values()].reduce((n, t) => n + Buffer.byteLength(t), 0) };
}

const WORDS = ('the agent reads files before editing them and keeps changes small tests run after every change ' +
  'prefer dedicated tools over shell commands report what was done and what was not verified never guess ' +
  'a path ask when the request is ambiguous cite file and line when pointing at code user').split(' ');

function prose(rand, bytes) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const kind = rand();
    const words = Array.from({ length: 8 + Math.floor(rand() * 14) }, () => WORDS[Math.floor(rand() * WORDS.length)]);
    let line;
    if (kind < 0.08) line = `## ${words.slice(0, 4).join(' ')}\n`;
    else if (kind < 0.4) line = `- ${words.join(' ')}.`;
    else if (kind < 0.45) line = `Contact ${words[0]}@example.com or @${words[1]} about \`@types/node\`.`;
    else line = `${words.join(' ')}.`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** Decorators in code; one fence in four also mentions a path that must not be included. */
function codeFence(rand) {
  const lines = ['```ts', '@Component({ selector: "app" })', `export class C${Math.floor(rand() * 1000)} {}`];
  if (rand() < 0.25) lines.push('// see @./not-an-include.md');
  return [...lines, '```'].join('\n');
}

function pad(i) {
  return String(i).padStart(5, '0');
}

/** A small seeded random number generator (uniform in [0, 1)); the tests use it too. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, count, seed] = process.argv.slice(2);
  const stats = await generateTree(path.resolve(dir), { files: Number(count), seed: Number(seed ?? 1) });
  console.log(`${stats.files} files, ${(stats.bytes / 1e6).toFixed(1)} MB in ${dir}`);
}
