/** The include resolver in context mode, called directly: refusals are warnings, never silent. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectContextFiles, DEFAULT_LIMITS } from '../../compiler/index.js';
import { tempDir } from '../helpers/tree.js';

describe('collectContextFiles', () => {
  it('an entry file over the size limit is skipped with a warning at its first line', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'CLAUDE.md'), 'x'.repeat(2048));
    const result = await collectContextFiles(path.join(dir, 'CLAUDE.md'), {
      homeDir: dir,
      limits: { ...DEFAULT_LIMITS, maxBytes: 1024 },
      seen: new Set(),
    });
    expect(result.files).toEqual([]);
    expect(result.warnings.map((w) => [w.rule, w.severity, w.line, w.column])).toEqual([['include/too-large', 'warning', 1, 1]]);
  });

  it('broken frontmatter is reported, and the file is still read', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'r.md'), '---\npaths: [unclosed\n---\nrule\n');
    const result = await collectContextFiles(path.join(dir, 'r.md'), { homeDir: dir, limits: DEFAULT_LIMITS, seen: new Set() });
    expect(result.warnings.map((w) => [w.rule, w.severity, w.line])).toEqual([['frontmatter/invalid-yaml', 'warning', 2]]);
    expect(result.files.map((f) => f.content)).toEqual(['rule\n']);
  });

  it('included files come before their includer, each once, with `~/` allowed', async () => {
    const home = await tempDir();
    const dir = await tempDir();
    await fs.writeFile(path.join(home, 'prefs.md'), 'home prefs\n');
    await fs.writeFile(path.join(dir, 'a.md'), 'A @./b.md @~/prefs.md @./b.md @./missing.md\n');
    await fs.writeFile(path.join(dir, 'b.md'), 'B @~/prefs.md\n');
    const result = await collectContextFiles(path.join(dir, 'a.md'), { homeDir: home, limits: DEFAULT_LIMITS, seen: new Set() });
    expect(result.files.map((f) => path.basename(f.path))).toEqual(['prefs.md', 'b.md', 'a.md']);
    expect(result.warnings).toEqual([]);
  });
});
