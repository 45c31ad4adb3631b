/**
 * Sources are UTF-8 text: invalid bytes, UTF-16 and NULs are positioned
 * diagnostics, never a U+FFFD slipped into the compiled text (docs/authoring.md#fidelity).
 */
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, collectInstructionFiles, DEFAULT_LIMITS } from '../../compiler/index.js';
import { firstInvalidUtf8 } from '../../compiler/markdown/text-check.js';
import { buildThenBreak, errors, expectPreviousBundle, messageOf } from '../helpers/rebuild.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const GOOD = {
  'prompts/profiles/p.md': '---\nsections: [a]\n---\n',
  'prompts/sections/a.md': 'Intro\n',
};

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** Good build, then `rel` gets `content`, then the second build. */
function rebuildWith(rel: string, content: Uint8Array, files: Record<string, string> = GOOD) {
  return buildThenBreak(files, (root) => writeTree(root, { [rel]: content }));
}

describe('invalid UTF-8 in a source', () => {
  it('is positioned at its first bad byte, and the previous bundle stays', async () => {
    const run = await rebuildWith('prompts/sections/a.md', bytes('Intro\nab', [0xff], 'cd\n'));
    expect(errors(run.result)).toEqual(['source/encoding prompts/sections/a.md:2:3']);
    expect(messageOf(run.result, 'source/encoding')).toBe('source is not valid UTF-8 (byte 0xFF at line 2, column 3): save it as UTF-8');
    expect(run.result.diagnostics[0]!.excerpt).toBe('ab\ufffdcd');
    await expectPreviousBundle(run);
  });

  it('counts lines and columns as the normalised text does: BOM, CRLF, frontmatter, characters before', async () => {
    const text = bytes([0xef, 0xbb, 0xbf], '---\r\nkind: static\r\n---\r\nline\r\nold\rmac\r\nhé ✓ x', [0xc3, 0x28], '\r\n');
    const run = await rebuildWith('prompts/sections/a.md', text);
    expect(errors(run.result)).toEqual(['source/encoding prompts/sections/a.md:7:7']);
  });

  it('on the first line, after a UTF-8 BOM, counts from the first character', async () => {
    const run = await rebuildWith('prompts/sections/a.md', bytes([0xef, 0xbb, 0xbf], 'ab', [0xff]));
    expect(errors(run.result)).toEqual(['source/encoding prompts/sections/a.md:1:3']);
  });

  it.each([
    ['an overlong form', [0xc0, 0xaf]],
    ['a surrogate', [0xed, 0xa0, 0x80]],
    ['a sequence cut by the end of the file', [0xe2, 0x82]],
    ['a lone continuation byte', [0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('%s is refused', async (_what, bad) => {
    const run = await rebuildWith('prompts/sections/a.md', bytes('Intro ', bad));
    expect(errors(run.result)).toEqual(['source/encoding prompts/sections/a.md:1:7']);
  });

  it('in an agent is refused the same way', async () => {
    const run = await rebuildWith('agents/x.md', bytes('---\nname: x\ndescription: d\n---\nBody', [0xfe], '\n'));
    expect(errors(run.result)).toEqual(['source/encoding agents/x.md:5:5']);
    await expectPreviousBundle(run);
  });

  it('valid UTF-8 of every length builds byte for byte, a written U+FFFD included', async () => {
    const root = await tempDir();
    const body = 'Ascii, é, ✓, 𝄞, and a replacement character written on purpose: \ufffd\n';
    await writeTree(root, { ...GOOD, 'prompts/sections/a.md': body });
    const result = await buildProject({ root, cacheDir: null, write: false });
    expect(errors(result)).toEqual([]);
    const entry = result.bundle!.manifest.profiles.p!.sections[0]!;
    expect(result.bundle!.files.get(entry.file)).toBe(body);
  });
});

describe('UTF-16', () => {
  it.each([
    ['little-endian with a BOM', Buffer.from('\ufeffIntro\n', 'utf16le')],
    ['big-endian with a BOM', Buffer.from('\ufeffIntro\n', 'utf16le').swap16()],
    ['little-endian without a BOM', Buffer.from('---\nkind: static\n---\nIntro\n', 'utf16le')],
    ['big-endian without a BOM', Buffer.from('Intro, a longer line\n', 'utf16le').swap16()],
  ])('%s says to save it as UTF-8', async (_what, content) => {
    const run = await rebuildWith('prompts/sections/a.md', content);
    expect(errors(run.result)).toEqual(['source/encoding prompts/sections/a.md:1:1']);
    expect(messageOf(run.result, 'source/encoding')).toBe('source is UTF-16: save it as UTF-8');
    await expectPreviousBundle(run);
  });
});

describe('NUL bytes', () => {
  it('past the first 8 KiB are refused, positioned', async () => {
    const run = await rebuildWith('prompts/sections/a.md', bytes(`${'x'.repeat(9000)}\nab`, [0], 'cd\n'));
    expect(errors(run.result)).toEqual(['source/binary prompts/sections/a.md:2:3']);
    expect(messageOf(run.result, 'source/binary')).toBe('source holds a NUL byte at line 2, column 3: it is not a text file');
    expect(run.result.diagnostics[0]!.excerpt).toBe('ab\u2400cd');
    await expectPreviousBundle(run);
  });

  it('in the first 8 KiB make a binary file, refused as a whole', async () => {
    const run = await rebuildWith('prompts/sections/a.md', bytes('Intro\nab', [0], '\n'));
    expect(errors(run.result)).toEqual(['source/binary prompts/sections/a.md:1:1']);
  });
});

describe('in an include target', () => {
  const FILES = { ...GOOD, 'prompts/sections/a.md': 'Intro\nSee @../../other/f.md here\n', 'other/f.md': 'Hello\n' };

  it('invalid UTF-8 is refused at the directive, the message giving its place in the target', async () => {
    const run = await rebuildWith('other/f.md', bytes('Hello\n\n  x', [0xc3], '\n'), FILES);
    expect(errors(run.result)).toEqual(['include/encoding prompts/sections/a.md:2:5']);
    expect(messageOf(run.result, 'include/encoding')).toBe(
      "'../../other/f.md' is not valid UTF-8 (byte 0xC3 at line 3, column 4): save it as UTF-8",
    );
    await expectPreviousBundle(run);
  });

  it('UTF-16 is refused', async () => {
    const run = await rebuildWith('other/f.md', Buffer.from('\ufeffHello\n', 'utf16le'), FILES);
    expect(errors(run.result)).toEqual(['include/encoding prompts/sections/a.md:2:5']);
    expect(messageOf(run.result, 'include/encoding')).toBe("'../../other/f.md' is UTF-16: save it as UTF-8");
    await expectPreviousBundle(run);
  });

  it('a NUL past the first 8 KiB is refused', async () => {
    const run = await rebuildWith('other/f.md', bytes('y'.repeat(10_000), [0]), FILES);
    expect(errors(run.result)).toEqual(['include/binary prompts/sections/a.md:2:5']);
    expect(messageOf(run.result, 'include/binary')).toBe("'../../other/f.md' holds a NUL byte at line 1, column 10001: it is not a text file");
    await expectPreviousBundle(run);
  });

  it('a fragment under prompts/ is reported where it is included', async () => {
    const files = { ...GOOD, 'prompts/sections/a.md': 'See @../f.md\n', 'prompts/f.md': 'Hello\n' };
    const run = await rebuildWith('prompts/f.md', bytes('Hel', [0xff], 'lo\n'), files);
    expect(errors(run.result)).toEqual(['include/encoding prompts/sections/a.md:1:5']);
  });

  it('in instructions mode, bad encodings are skipped with a warning', async () => {
    const dir = await tempDir();
    await writeTree(dir, {
      'CLAUDE.md': 'Top\n@./latin1.md\n@./wide.md\n',
      'latin1.md': bytes('caf', [0xe9], '\n'),
      'wide.md': Buffer.from('\ufeffwide\n', 'utf16le'),
    });
    const found = await collectInstructionFiles(path.join(dir, 'CLAUDE.md'), { homeDir: dir, limits: DEFAULT_LIMITS, seen: new Set() });
    expect(found.files.map((f) => path.basename(f.path))).toEqual(['CLAUDE.md']);
    expect(found.warnings.map((w) => `${w.rule} ${w.line}:${w.column} ${w.message}`)).toEqual([
      "include/encoding 2:1 './latin1.md' is not valid UTF-8 (byte 0xE9 at line 1, column 4): save it as UTF-8",
      "include/encoding 3:1 './wide.md' is UTF-16: save it as UTF-8",
    ]);
  });
});

describe('firstInvalidUtf8', () => {
  it('agrees with node on random bytes: -1 exactly when valid, else a valid prefix before it', () => {
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    // Mostly ASCII and well-formed leads, so that failures fall anywhere, not only at byte 0.
    const pieces = [[0x41], [0xc3, 0xa9], [0xe2, 0x9c, 0x93], [0xf0, 0x9d, 0x84, 0x9e], [0x0a]];
    for (let n = 0; n < 2000; n++) {
      const parts: number[] = [];
      const length = random() % 40;
      for (let i = 0; i < length; i++) parts.push(...(random() < 8 ? [random()] : pieces[random() % pieces.length]!));
      const buffer = Buffer.from(parts);
      const at = firstInvalidUtf8(buffer);
      expect(at === -1, buffer.toString('hex')).toBe(isUtf8(buffer));
      if (at !== -1) expect(isUtf8(buffer.subarray(0, at)), buffer.toString('hex')).toBe(true);
    }
  });
});
