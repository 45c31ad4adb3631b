/**
 * A seeded generator of adversarial project trees (issue 12, acceptance 2):
 * exponential fan-out, long and cyclic chains, special files, bad encodings,
 * random bytes in frontmatter and bodies, names at and past the limits,
 * hostile templates, the boundary marker, symlinks out of the root,
 * control and bidi characters, names that are `Object.prototype` keys,
 * hostile config files, and a previous `dist/` whose state folder or
 * artifacts are symlinks, FIFOs or files where folders belong. Each
 * tree is small on disk; what makes it hostile is its shape.
 */
import { mulberry32 } from '../../helpers/generate-tree.mjs';

export interface HostileTree {
  /** Root-relative path → content. */
  files: Record<string, string | Uint8Array>;
  /** Root-relative paths to create as FIFOs. */
  fifos: string[];
  /** Root-relative link path → target (relative to the link, or absolute). */
  symlinks: Record<string, string>;
  /** What the tree was made of, for a failure's message. */
  traits: string[];
  /**
   * Changes to the previous bundle copied into `dist/`, made after the copy:
   * paths to remove, then files, symlinks and FIFOs to put there. The path
   * `@artifact` stands for the bundle's first artifact.
   */
  dist: { remove: string[]; files: Record<string, string>; symlinks: Record<string, string>; fifos: string[] };
  /** Root-relative folders the build must leave exactly as they were (a state folder's link points there). */
  untouched: string[];
}

type Rand = () => number;
type Trait = (t: HostileTree, r: Rand) => void;

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

function bytes(r: Rand, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
}

/** Section `s<i>` in the profile, plus the profile naming it. */
function section(t: HostileTree, name: string, content: string | Uint8Array): void {
  t.files[`prompts/sections/${name}.md`] = content;
}

const TRAITS: Record<string, Trait> = {
  fanOut(t, r) {
    // Level k includes level k+1 `width` times: width^depth copies of the leaf.
    const width = int(r, 2, 20);
    const depth = int(r, 2, 5);
    for (let k = 0; k < depth; k++) t.files[`prompts/fragments/f${k}.md`] = Array(width).fill(`@./f${k + 1}.md`).join('\n') + '\n';
    t.files[`prompts/fragments/f${depth}.md`] = 'leaf text '.repeat(int(r, 1, 50)) + '\n';
    section(t, 'fan', 'Start\n@../fragments/f0.md\nEnd\n');
  },
  chain(t, r) {
    const n = int(r, 2, 9);
    for (let k = 0; k < n; k++) t.files[`prompts/fragments/c${k}.md`] = `level ${k}\n@./c${k + 1}.md\n`;
    t.files[`prompts/fragments/c${n}.md`] = r() < 0.5 ? 'bottom\n' : '@./c0.md\n'; // half of them a cycle
    section(t, 'chain', '@../fragments/c0.md\n');
  },
  fifo(t, r) {
    if (r() < 0.5) t.fifos.push('prompts/sections/pipe.md');
    else {
      t.fifos.push('prompts/fragments/pipe.md');
      section(t, 'reads-pipe', 'Before @../fragments/pipe.md after\n');
    }
    if (r() < 0.5) t.symlinks['prompts/fragments/to-pipe.md'] = 'pipe.md';
  },
  device(t) {
    t.symlinks['prompts/fragments/zero.md'] = '/dev/zero';
    section(t, 'reads-zero', '@../fragments/zero.md\n');
  },
  escape(t, r) {
    const target = pick(r, ['/etc/hostname', '../../../../../../etc/passwd', '~/x.md']);
    section(t, 'escape', `See @${target.startsWith('/') || target.startsWith('~') ? target : `./${target}`} here\n`);
    t.symlinks['prompts/sections/out.md'] = '/etc/hostname';
  },
  badUtf8(t, r) {
    const body = Buffer.concat([Buffer.from('---\nkind: static\n---\nline one\nbad '), Buffer.from(pick(r, [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88]])), Buffer.from(' here\n')]);
    section(t, 'bad-utf8', body);
  },
  utf16(t, r) {
    const text = '---\nkind: static\n---\nHello\n';
    const le = Buffer.from(text, 'utf16le');
    section(t, 'utf16', r() < 0.5 ? Buffer.concat([Buffer.from([0xff, 0xfe]), le]) : le);
  },
  nulLate(t, r) {
    section(t, 'nul', `${'x'.repeat(int(r, 9000, 20000))}\u0000tail\n`);
  },
  randomFrontmatter(t, r) {
    section(t, 'rand-fm', Buffer.concat([Buffer.from('---\n'), bytes(r, int(r, 1, 200)), Buffer.from('\n---\nBody\n')]));
  },
  randomBody(t, r) {
    section(t, 'rand-body', Buffer.concat([Buffer.from('---\nkind: static\n---\n'), bytes(r, int(r, 1, 2000))]));
  },
  yamlBomb(t) {
    const levels = Array.from({ length: 8 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(8).fill(`*l${i}`).join(',')}]`);
    section(t, 'bomb', `---\nl0: &l0 [lol]\n${levels.join('\n')}\n---\nBody\n`);
  },
  names(t, r) {
    const name = pick(r, ['a'.repeat(int(r, 90, 400)), 'Intro', 'a/b', '..', 'nul\u0000name', 'con:x', '0x1F', '1e3', 'true', 'null', '[a, b]', '']);
    const raw = /^(0x1F|1e3|true|null|\[a, b\])$/.test(name);
    section(t, 'named', `---\nname: ${raw ? name : JSON.stringify(name)}\n---\nText\n`);
    if (r() < 0.5) section(t, 'intro-twin', '---\nname: intro\n---\nText\n');
    if (r() < 0.5) t.files['agents/x.md'] = `---\nname: ${raw ? name : JSON.stringify(name)}\ndescription: d\n---\nBody\n`;
  },
  templates(t, r) {
    const expr = pick(r, ['{{nosuchhelper x}}', '{{> partial}}', '{{* deco}}', '{{#if}}x{{/if}}', '{{#each}}{{/each}}', '{{x', '}}{{', '{{{raw}}}', '{{#with a b}}{{/with}}', '{{lookup . "constructor"}}', '{{#if a}}{{else}}{{else}}{{/if}}']);
    section(t, 'tpl', `---\nkind: dynamic\ninputs: [x, a, raw]\n---\nValue: ${expr}\n`);
    if (r() < 0.3) section(t, 'static-tpl', `Static with ${expr}\n`);
  },
  marker(t, r) {
    const text = pick(r, ['SYSTEM_PROMPT_DYNAMIC_BOUNDARY', 'before __SYSTEM_PROMPT_DYNAMIC_BOUNDARY__ after']);
    if (r() < 0.5) section(t, 'marker', `${text}\n`);
    else {
      t.files['prompts/fragments/marker.md'] = `${text}\n`;
      section(t, 'marker', '@../fragments/marker.md\n');
    }
  },
  includeTokens(t, r) {
    t.files['prompts/fragments/tiny.md'] = 'x\n';
    section(t, 'tokens', Array(int(r, 100, 3000)).fill('@../fragments/tiny.md').join(' ') + '\n');
  },
  nestedList(t, r) {
    const depth = int(r, 50, 400);
    section(t, 'nested', Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n') + '\n');
  },
  lazyLines(t, r) {
    // Lines continuing a quote or list item without `>` or indent: quadratic for the Markdown tokenizer.
    const opener = pick(r, ['> quote', '- item', '> - quoted item']);
    t.files['prompts/fragments/tiny.md'] = 'x\n';
    // A few hundred lines, or just past the limit (7,746 after one opener), where the estimate stops it before tokenizing.
    section(t, 'lazy', `${opener} @../fragments/tiny.md\n${'lazy line\n'.repeat(r() < 0.5 ? int(r, 50, 500) : int(r, 7800, 9000))}`);
  },
  emphasis(t, r) {
    const unit = pick(r, ['*a* ', '_a_ ', '**a** ', '[a', '<a ', '*a ']);
    t.files['prompts/fragments/tiny.md'] = 'x\n';
    // Some hundreds, or past the limits (26,000 emphasis runs, 200,000 brackets).
    section(t, 'emphasis', `See @../fragments/tiny.md ${unit.repeat(r() < 0.5 ? int(r, 50, 1000) : int(r, 200_001, 220_000))}\n`);
  },
  longRun(t, r) {
    // No white space for a long way: byte-pair merging is quadratic in a run's length.
    section(t, 'run', `${pick(r, ['[', 'a', 'é', 'ab1', '🎉']).repeat(int(r, 1000, 20000))}\n`);
  },
  longBlock(t, r) {
    // One block of many short lines after an include: refused past 100,000 weighted lines, or small.
    const prefix = pick(r, ['', '> ', '> > ', '<!-- open\n']);
    t.files['prompts/fragments/tiny.md'] = 'x\n';
    section(t, 'long', `${prefix}@../fragments/tiny.md\n${`${prefix.startsWith('<') ? '' : prefix}x\n`.repeat(r() < 0.5 ? int(r, 100, 2000) : int(r, 100_001, 150_000))}`);
  },
  deepTemplate(t, r) {
    const depth = int(r, 50, 3000);
    const [open, close] = pick(r, [['{{#if a}}', '{{/if}}'], ['{{#each a}}', '{{/each}}'], ['{{#with a}}', '{{/with}}']] as const);
    const chain = r() < 0.3 ? `{{#if a}}x${'{{else if a}}y'.repeat(depth)}{{/if}}` : `${open.repeat(depth)}x${close.repeat(depth)}`;
    section(t, 'deep-tpl', `---\nkind: dynamic\ninputs: [a]\n---\n${chain}\n`);
  },
  manyKeys(t, r) {
    // Many keys, a few of them needing the lenient reading (each try parses the whole frontmatter again).
    const keys = Array.from({ length: r() < 0.8 ? int(r, 10, 300) : int(r, 1000, 1500) }, (_, i) => `k${i}: ${r() < 0.02 ? 'Triggers on: x' : 'v'}`).join('\n');
    const alias = r() < 0.5 ? 'anchor: &a x\nalias: *a\n' : '';
    t.files['agents/keys.md'] = `---\nname: keys\ndescription: d\n${alias}${keys}\n---\nYou have keys.\n`;
  },
  agentsMixed(t, r) {
    t.files['agents/README.md'] = '# Agents\nNo frontmatter here.\n';
    t.files['agents/ok.md'] = `---\nname: ok\ndescription: ${pick(r, ['fine', 'Triggers on: x', '"quoted"', '[unclosed'])}\ntools: ${pick(r, ['Read, Grep', '[Read]', '42', '{a: 1}'])}\n---\nYou are ok.\n`;
  },
  uncached(t, r) {
    section(t, 'unc', `---\nkind: dynamic\ncache: uncached\nreason: ${pick(r, ['"   "', '""', 'real reason', '[1, 2]'])}\n---\nx\n`);
  },
  protoNames(t, r) {
    // Names that are also Object.prototype keys, as a section, a profile and an agent: lookups by name must be own-key lookups.
    const name = pick(r, ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']);
    section(t, name, `---\nname: ${name}\n---\nA section named ${name}.\n`);
    if (r() < 0.5) t.files[`prompts/profiles/${name}.md`] = `---\nsections: [intro, ${pick(r, [name, 'toString', 'missing'])}]\ncacheWarning: false\n---\n`;
    if (r() < 0.5) t.files[`agents/${name}.md`] = `---\nname: ${name}\ndescription: ${pick(r, ['d', name])}\ntools: [${pick(r, ['Read', name])}]\n---\nYou are ${name}.\n`;
  },
  hostileConfig(t, r) {
    // Read by the CLI only (buildProject takes options, not the file): every shape must end in a diagnostic.
    const json = pick(r, [
      '{"__proto__": {"out": "elsewhere"}, "toString": 1}',
      '{"rules": {"toString": "off", "constructor": "error", "__proto__": "off"}}',
      '{"constants": {"constructor": "C", "__proto__": "P"}}',
      '{"include": {"maxDepth": 1e999}}',
      '{"cacheFacts": "/etc/passwd"}',
      '{"cacheFacts": "dist/manifest.json"}',
      '{"cacheFacts": [{"provider": "anthropic", "family": "x", "ids": ["claude-x"], "minimumTokens": 1, "readMultiplier": -1}]}',
      `{"rules": {${Array.from({ length: int(r, 100, 3000) }, (_, i) => `"bad/${i}": "off"`).join(', ')}}}`,
      'root:x:0:0:root:/root:/bin/bash',
    ]);
    const mjs = pick(r, [
      'throw null;',
      'export default Promise.reject(new Error("later"));',
      'export default new Proxy({}, { ownKeys() { throw 1; } });',
      'export default { get out() { throw new Error("getter"); } };',
      'export default new Map([["out", "x"]]);',
      'const c = { include: {} }; c.include.self = c; export default c;',
    ]);
    if (r() < 0.5) t.files['prompt-build.config.json'] = json;
    else t.files['prompt-build.config.mjs'] = `${mjs}\n`;
  },
  stateFolder(t, r) {
    // The previous bundle's state folder: a link out of dist/, a FIFO or link for a lock, a file for the folder.
    if (t.untouched.includes('state')) return; // one shape a tree
    t.files['state/.keep'] = '';
    t.untouched.push('state');
    const shape = pick(r, ['linked-folder', 'fifo-lock', 'linked-lock', 'file-folder']);
    if (shape === 'linked-folder' || shape === 'file-folder') t.dist.remove.push('.prompt-build');
    if (shape === 'linked-folder') t.dist.symlinks['.prompt-build'] = '../state';
    if (shape === 'file-folder') t.dist.files['.prompt-build'] = 'not a folder\n';
    if (shape === 'fifo-lock') t.dist.fifos.push('.prompt-build/lock');
    if (shape === 'linked-lock') {
      t.files['state/lock'] = '1 elsewhere\n';
      t.dist.symlinks['.prompt-build/lock'] = '../../state/lock';
    }
  },
  bundleLinks(t, r) {
    // An artifact of the previous bundle replaced by a link out of the root, or a FIFO.
    if (t.dist.remove.includes('@artifact')) return;
    t.dist.remove.push('@artifact');
    if (r() < 0.5) t.dist.symlinks['@artifact'] = '/etc/hostname';
    else t.dist.fifos.push('@artifact');
  },
  controlBytes(t, r) {
    // Terminal escapes, a lone CR, C1 controls, bidi overrides: in a body, an included fragment, frontmatter, or among CRLF line endings.
    const c = pick(r, ['\u001b[2K', '\r', '\u0007', '\u009b31m', '\u202e', '\u2066x\u2069', '\u007f', '\u000c', '\u0085']);
    const where = pick(r, ['body', 'fragment', 'frontmatter', 'crlf']);
    if (where === 'fragment') {
      t.files['prompts/fragments/ctl.md'] = `hidden${c}text\n`;
      section(t, 'ctl', 'Before\n@../fragments/ctl.md\n');
    } else if (where === 'frontmatter') section(t, 'ctl', `---\nkind: static\nnote: x${c}y\n---\nBody\n`);
    else if (where === 'crlf') section(t, 'ctl', `line\r\nother\r\n${r() < 0.5 ? `lone${c}\r\n` : ''}`);
    else section(t, 'ctl', `before ${c} after\n`);
  },
};

const NAMES = Object.keys(TRAITS);

/** Tree number `index` of the run seeded `seed`: one to three traits over a small valid project. */
export function hostileTree(seed: number, index: number): HostileTree {
  const r = mulberry32(seed * 100_003 + index);
  const t: HostileTree = { files: {}, fifos: [], symlinks: {}, traits: [], dist: { remove: [], files: {}, symlinks: {}, fifos: [] }, untouched: [] };
  t.files['prompts/sections/intro.md'] = 'You are a helpful assistant.\n';
  const count = int(r, 1, 3);
  for (let i = 0; i < count; i++) {
    const name = pick(r, NAMES);
    t.traits.push(name);
    TRAITS[name]!(t, r);
  }
  const sections = Object.keys(t.files)
    .filter((p) => p.startsWith('prompts/sections/'))
    .map((p) => p.slice('prompts/sections/'.length, -'.md'.length));
  t.files['prompts/profiles/p.md'] = `---\nsections: [${sections.map((s) => JSON.stringify(s)).join(', ')}]\ncacheWarning: false\n---\n`;
  return t;
}
