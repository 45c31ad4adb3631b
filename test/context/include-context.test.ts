/** The include resolver in instructions mode, called directly: refusals are warnings, never silent. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInstructionFiles, DEFAULT_LIMITS } from '../../compiler/index.js';
import { tempDir } from '../helpers/tree.js';

describe('collectInstructionFiles', () => {
  it('an entry file over the size limit is skipped with a warning at its first line', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'CLAUDE.md'), 'x'.repeat(2048));
    const result = await collectInstructionFiles(path.join(dir, 'CLAUDE.md'), {
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
    const result = await collectInstructionFiles(path.join(dir, 'r.md'), { homeDir: dir, limits: DEFAULT_LIMITS, seen: new Set() });
    expect(result.warnings.map((w) => [w.rule, w.severity, w.line])).toEqual([['frontmatter/invalid-yaml', 'warning', 2]]);
    expect(result.files.map((f) => f.content)).toEqual(['rule\n']);
  });

  it('included files come before their includer, each once, with `~/` allowed', async () => {
    const home = await tempDir();
    const dir = await tempDir();
    await fs.writeFile(path.join(home, 'prefs.md'), 'home prefs\n');
    await fs.writeFile(path.join(dir, 'a.md'), 'A @./b.md @~/prefs.md @./b.md @./missing.md\n');
    await fs.writeFile(path.join(dir, 'b.md'), 'B @~/prefs.md\n');
    const result = await collectInstructionFiles(path.join(dir, 'a.md'), { homeDir: home, limits: DEFAULT_LIMITS, seen: new Set() });
    expect(result.files.map((f) => path.basename(f.path))).toEqual(['prefs.md', 'b.md', 'a.md']);
    expect(result.warnings).toEqual([]);
  });

  it('a cycle is named from where it starts, as in compile mode; the files in it are read once', async () => {
    const dir = await fs.realpath(await tempDir());
    await fs.writeFile(path.join(dir, 'CLAUDE.md'), 'top @./a.md\n');
    await fs.writeFile(path.join(dir, 'a.md'), 'A @./b.md\n');
    await fs.writeFile(path.join(dir, 'b.md'), 'B @./a.md\n');
    const result = await collectInstructionFiles(path.join(dir, 'CLAUDE.md'), { homeDir: dir, limits: DEFAULT_LIMITS, seen: new Set() });
    const [a, b] = [path.join(dir, 'a.md'), path.join(dir, 'b.md')];
    expect(result.warnings.map((w) => [w.rule, w.file, w.message])).toEqual([['include/cycle', b, `include cycle: ${a} → ${b} → ${a}`]]);
    expect(result.files.map((f) => path.basename(f.path))).toEqual(['b.md', 'a.md', 'CLAUDE.md']);
  });

  it('includes nested deeper than the limit are refused with the route', async () => {
    const dir = await fs.realpath(await tempDir());
    for (let i = 0; i < 4; i++) await fs.writeFile(path.join(dir, `f${i}.md`), `level ${i} @./f${i + 1}.md\n`);
    await fs.writeFile(path.join(dir, 'f4.md'), 'deepest\n');
    const result = await collectInstructionFiles(path.join(dir, 'f0.md'), { homeDir: dir, limits: { ...DEFAULT_LIMITS, maxDepth: 2 }, seen: new Set() });
    const route = [0, 1, 2, 3].map((i) => path.join(dir, `f${i}.md`)).join(' → ');
    expect(result.warnings.map((w) => [w.rule, w.message])).toEqual([['include/depth', `includes nest deeper than 2 levels: ${route}`]]);
    expect(result.files.map((f) => path.basename(f.path))).toEqual(['f2.md', 'f1.md', 'f0.md']);
  });
});
