/**
 * Which files are sources, through the build as users run it: every `.md`
 * under prompts/ and agents/, dot-folders and dot-files left out, symlinked
 * folders followed but never round a loop, links that lead nowhere left out.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const SECTION = (n: string) => `---\nname: ${n}\n---\n${n}.\n`;

describe('source discovery', () => {
  it('finds .md files at any depth, through symlinked folders, and nothing else', async () => {
    const root = await tempDir('pb-discover-');
    await writeTree(root, {
      'prompts/sections/a.md': SECTION('a'),
      'prompts/sections/deep/er/b.md': SECTION('b'),
      'prompts/sections/upper.MD': SECTION('upper'),
      'prompts/sections/notes.txt': 'not a source',
      'prompts/sections/.drafts/d.md': SECTION('d'),
      'prompts/sections/.hidden.md': SECTION('hidden'),
      'shared/c.md': SECTION('c'),
      'prompts/profiles/p.md': '---\nsections: [a, b, c]\ncacheWarning: false\n---\n',
    });
    await fs.symlink('../../shared', path.join(root, 'prompts/sections/linked'));
    await fs.symlink('..', path.join(root, 'prompts/sections/deep/loop'));
    await fs.symlink('nowhere.md', path.join(root, 'prompts/sections/dangling.md'));
    await fs.symlink('self', path.join(root, 'prompts/sections/self'));
    const result = await buildProject({ root, cacheDir: null, write: false });
    expect(result.diagnostics).toEqual([]);
    expect(Object.keys(result.manifest!.sources).sort()).toEqual([
      'prompts/profiles/p.md',
      'prompts/sections/a.md',
      'prompts/sections/deep/er/b.md',
      'prompts/sections/linked/c.md',
    ]);
  });

  it('a folder tree hundreds of levels deep (as deep as a path may be) is walked', async () => {
    const root = await tempDir('pb-discover-deep-');
    const levels = Array.from({ length: 400 }, () => 'd').join('/');
    await writeTree(root, { [`prompts/sections/${levels}/x.md`]: SECTION('x'), 'prompts/profiles/p.md': '---\nsections: [x]\ncacheWarning: false\n---\n' });
    const result = await buildProject({ root, cacheDir: null, write: false });
    expect(result.ok).toBe(true);
  });
});
