/**
 * writeBundle with generated files in pieces (pieces.ts): the bytes on disk
 * are the joined text however many pieces there are, a file already holding
 * them is left alone, and in watch mode (`previous`) an unchanged file is not
 * written again unless it went missing.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BundleFiles, Piece } from '../../compiler/bundle/pieces.js';
import { writeBundle } from '../../compiler/write/write-bundle.js';
import { leaveInterruptedWrite, readTree, tempDir } from '../helpers/tree.js';

function bundle(pieceCount: number, tag: string): BundleFiles {
  const files = new BundleFiles();
  files.set(`static/a.${tag}.md`, `text ${tag}\n`);
  // More pieces than one writev call takes (IOV_MAX is 1024 on Linux), some of them multi-byte.
  files.setPieces('bundle.mjs', Array.from({ length: pieceCount }, (_, i) => new Piece(i % 7 === 0 ? `ü${i}😀\n` : `${tag}-${i},`)));
  files.setPieces('manifest.json', [new Piece('{\n'), new Piece(`  "tag": "${tag}",\n`), new Piece('  "tool": { "name": "prompt-build" }\n'), new Piece('}\n')]);
  return files;
}

describe('writeBundle with pieces', () => {
  const dirs: string[] = [];
  const outDir = async () => {
    dirs.push(await tempDir('pb-write-'));
    return dirs.at(-1)!;
  };
  afterAll(() => Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

  it('writes the joined text of thousands of pieces, and only what changed', async () => {
    const out = await outDir();
    const first = bundle(5000, 'one');
    expect((await writeBundle(out, first)).written).toEqual(['bundle.mjs', 'manifest.json', 'static/a.one.md']);
    const tree = await readTree(out);
    for (const [rel, content] of first) expect(tree.get(rel)!.toString('utf8'), rel).toBe(content);

    // A fresh process finds the same bytes on disk: nothing to write.
    expect((await writeBundle(out, bundle(5000, 'one'))).written).toEqual([]);

    const second = bundle(5001, 'two');
    const report = await writeBundle(out, second, (await writeBundle(out, first)).state);
    expect(report).toMatchObject({ written: ['bundle.mjs', 'manifest.json', 'static/a.two.md'], removed: ['static/a.one.md'] });
    expect((await fs.readFile(path.join(out, 'bundle.mjs'), 'utf8')) === second.get('bundle.mjs')).toBe(true);
  });

  it('in watch mode, writes an unchanged file again only when it went missing', async () => {
    const out = await outDir();
    const files = bundle(10, 'same');
    let state = (await writeBundle(out, files)).state;
    const again = await writeBundle(out, files, state);
    expect(again.written).toEqual([]);
    // Removed right after the write, as a script might: the directory's time still tells.
    await fs.rm(path.join(out, 'bundle.mjs'));
    await fs.rm(path.join(out, 'static/a.same.md'));
    state = (await writeBundle(out, files, again.state)).state;
    expect((await readTree(out)).get('bundle.mjs')?.toString('utf8')).toBe(files.get('bundle.mjs'));
    expect((await readTree(out)).get('static/a.same.md')?.toString('utf8')).toBe(files.get('static/a.same.md'));
    // A stray file added meanwhile is found, and left alone: the tool never wrote it (issue 12).
    await fs.writeFile(path.join(out, 'static/stray.md'), 'not ours');
    expect((await writeBundle(out, files, state)).removed).toEqual([]);
    expect((await readTree(out)).get('static/stray.md')?.toString('utf8')).toBe('not ours');
  });

  it('in watch mode, writes everything again when dist/ was removed whole', async () => {
    const out = await outDir();
    const files = bundle(10, 'gone');
    const { state } = await writeBundle(out, files);
    await fs.rm(out, { recursive: true });
    expect((await writeBundle(out, files, state)).written).toEqual(['bundle.mjs', 'manifest.json', 'static/a.gone.md']);
    expect([...(await readTree(out)).keys()]).toEqual(['bundle.mjs', 'manifest.json', 'static/a.gone.md']);
  });

  it('trusts the state of the last write only for the directory it describes', async () => {
    const [a, b] = [await outDir(), await outDir()];
    const files = bundle(10, 'one');
    const state = (await writeBundle(a, files)).state;
    expect((await writeBundle(b, files, state)).written).toEqual(['bundle.mjs', 'manifest.json', 'static/a.one.md']);
  });

  it('prunes the temporary file of an interrupted write, and leaves none of its own', async () => {
    const out = await outDir();
    await fs.writeFile(path.join(out, 'manifest.json.1.tmp'), 'half a manifest');
    await leaveInterruptedWrite(out, ['manifest.json.1.tmp']);
    const report = await writeBundle(out, bundle(10, 'x'));
    expect(report.removed).toEqual(['manifest.json.1.tmp']);
    expect([...(await readTree(out)).keys()]).toEqual(['bundle.mjs', 'manifest.json', 'static/a.x.md']);
  });
});
