import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DISABLE_ENV, getUserContext, type InstructionFile, type UserContextOptions } from '../../compiler/context/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

let root: string;

beforeEach(async () => {
  root = await tempDir('pb-context-');
  vi.stubEnv(DISABLE_ENV, ''); // a developer's own setting must not turn the tests off
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await fs.rm(root, { recursive: true, force: true });
});

/** `kind path` per file inside the test tree (directories above the temporary folder are not the test's business). */
function listing(files: readonly InstructionFile[]): string[] {
  return files
    .filter((file) => file.path.startsWith(root + path.sep))
    .map((file) => `${file.kind} ${rel(file.path)}`);
}

function rel(file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

function options(extra: UserContextOptions = {}): UserContextOptions {
  return { homeDir: path.join(root, 'home'), managedPath: null, ...extra };
}

const FULL_TREE = {
  'managed/policy.md': 'managed policy\n',
  'home/.claude/CLAUDE.md': 'user file\n',
  'work/CLAUDE.md': 'work root\n',
  'work/CLAUDE.local.md': 'work local\n',
  'work/proj/CLAUDE.md': 'project\n',
  'work/proj/.claude/CLAUDE.md': 'project dot-folder\n',
  'work/proj/.claude/rules/b.md': 'rule b\n',
  'work/proj/.claude/rules/a.md': 'rule a\n',
  'work/proj/.claude/rules/nested/c.md': 'rule c\n',
  'work/proj/.claude/rules/notes.txt': 'not a rules file\n',
  'work/proj/CLAUDE.local.md': 'project local\n',
  'work/proj/pkg/CLAUDE.md': 'package\n',
  'extra/CLAUDE.md': 'added\n',
  'extra/.claude/rules/x.md': 'added rule\n',
};

describe('getUserContext discovery', () => {
  it('reads managed, user, each ancestor (file, dot-folder, sorted rules), local files, added directories: far to near', async () => {
    await writeTree(root, FULL_TREE);
    const context = await getUserContext(
      options({
        cwd: path.join(root, 'work/proj/pkg'),
        managedPath: path.join(root, 'managed/policy.md'),
        additionalDirectories: ['../../../extra'],
      }),
    );
    expect(listing(context.files)).toEqual([
      'managed managed/policy.md',
      'user home/.claude/CLAUDE.md',
      'project work/CLAUDE.md',
      'project work/proj/CLAUDE.md',
      'project work/proj/.claude/CLAUDE.md',
      'rules work/proj/.claude/rules/a.md',
      'rules work/proj/.claude/rules/b.md',
      'rules work/proj/.claude/rules/nested/c.md',
      'project work/proj/pkg/CLAUDE.md',
      'local work/CLAUDE.local.md',
      'local work/proj/CLAUDE.local.md',
      'added extra/CLAUDE.md',
      'rules extra/.claude/rules/x.md',
    ]);
    expect(context.files.find((f) => f.path.endsWith('pkg/CLAUDE.md'))?.content).toBe('package\n');
    expect(context.warnings).toEqual([]);
  });

  it('renders each file under its path and kind, in discovery order', async () => {
    await writeTree(root, FULL_TREE);
    const { instructions } = await getUserContext(options({ cwd: path.join(root, 'work/proj') }));
    const labels = [
      `Contents of ${path.join(root, 'home/.claude/CLAUDE.md')} (user: `,
      `Contents of ${path.join(root, 'work/proj/CLAUDE.md')} (project: `,
      `Contents of ${path.join(root, 'work/proj/.claude/rules/a.md')} (rules: `,
      `Contents of ${path.join(root, 'work/proj/CLAUDE.local.md')} (local: `,
    ];
    const positions = labels.map((label) => instructions?.indexOf(label) ?? -1);
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(instructions).toContain(`(project: project instructions, checked into the codebase):\n\nproject\n\n`);
  });

  it('gives the local date of `now` and null instructions when there are no files', async () => {
    await fs.mkdir(path.join(root, 'empty'));
    const context = await getUserContext(options({ cwd: path.join(root, 'empty'), now: new Date(2024, 0, 5, 23, 59) }));
    expect(context.currentDate).toBe("Today's date is 2024-01-05.");
    expect(listing(context.files)).toEqual([]);
  });

  it('lists the user file once when the home directory is an ancestor of the working directory', async () => {
    await writeTree(root, {
      'home/.claude/CLAUDE.md': 'user file\n',
      'home/CLAUDE.md': 'home as a project directory\n',
      'home/proj/CLAUDE.md': 'project\n',
    });
    const context = await getUserContext(options({ cwd: path.join(root, 'home/proj') }));
    expect(listing(context.files)).toEqual(['user home/.claude/CLAUDE.md', 'project home/CLAUDE.md', 'project home/proj/CLAUDE.md']);
  });

  it('uses configured file names, so AGENTS.md-style projects work', async () => {
    await writeTree(root, {
      'home/.agents/AGENTS.md': 'user agents file\n',
      'proj/AGENTS.md': 'agents\n',
      'proj/CLAUDE.md': 'ignored with these names\n',
      'proj/.agents/rules/r.md': 'agents rule\n',
      'proj/AGENTS.local.md': 'agents local\n',
    });
    const context = await getUserContext(
      options({
        cwd: path.join(root, 'proj'),
        fileNames: {
          instructions: 'AGENTS.md',
          dotInstructions: null,
          rulesDir: '.agents/rules',
          local: 'AGENTS.local.md',
          user: '.agents/AGENTS.md',
        },
      }),
    );
    expect(listing(context.files)).toEqual([
      'user home/.agents/AGENTS.md',
      'project proj/AGENTS.md',
      'rules proj/.agents/rules/r.md',
      'local proj/AGENTS.local.md',
    ]);
  });

  it('bare mode skips auto-discovery but reads added directories', async () => {
    await writeTree(root, FULL_TREE);
    const context = await getUserContext(
      options({
        cwd: path.join(root, 'work/proj'),
        managedPath: path.join(root, 'managed/policy.md'),
        additionalDirectories: [path.join(root, 'extra')],
        bare: true,
      }),
    );
    expect(context.files.map((f) => `${f.kind} ${rel(f.path)}`)).toEqual(['added extra/CLAUDE.md', 'rules extra/.claude/rules/x.md']);
  });

  it('the disable option turns everything off, added directories included', async () => {
    await writeTree(root, FULL_TREE);
    const context = await getUserContext(
      options({
        cwd: path.join(root, 'work/proj'),
        additionalDirectories: [path.join(root, 'extra')],
        disabled: true,
        now: new Date(2030, 11, 31),
      }),
    );
    expect(context).toEqual({ instructions: null, files: [], currentDate: "Today's date is 2030-12-31.", date: '2030-12-31', warnings: [] });
  });

  it('the environment variable turns everything off; an explicit option still wins', async () => {
    await writeTree(root, FULL_TREE);
    vi.stubEnv(DISABLE_ENV, '1');
    const off = await getUserContext(
      options({ cwd: path.join(root, 'work/proj'), additionalDirectories: [path.join(root, 'extra')] }),
    );
    expect(off.files).toEqual([]);
    expect(off.instructions).toBeNull();
    const on = await getUserContext(options({ cwd: path.join(root, 'work/proj'), disabled: false }));
    expect(listing(on.files)).toContain('project work/proj/CLAUDE.md');
  });
});

describe('getUserContext includes (instructions mode)', () => {
  it('puts includes before their includer, each file once: ~/ and absolute allowed, missing skipped, binary refused', async () => {
    await writeTree(root, {
      'home/personal.md': 'personal\n',
      'abs/elsewhere.md': 'absolute\n',
      'proj/CLAUDE.md': [
        '# Project',
        '@./docs/style.md',
        '@~/personal.md',
        `@${path.join(root, 'abs/elsewhere.md')}`,
        '@./missing.md',
        '@./logo.md',
        '',
      ].join('\n'),
      'proj/docs/style.md': 'style\n@./common.md\n',
      'proj/docs/common.md': 'common\n',
      'proj/.claude/CLAUDE.md': 'second\n@../docs/common.md\n',
      'proj/logo.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
    });
    const context = await getUserContext(options({ cwd: path.join(root, 'proj') }));
    expect(listing(context.files)).toEqual([
      'include proj/docs/common.md',
      'include proj/docs/style.md',
      'include home/personal.md',
      'include abs/elsewhere.md',
      'project proj/CLAUDE.md',
      'project proj/.claude/CLAUDE.md',
    ]);
    const common = context.files[0];
    expect(common).toMatchObject({ kind: 'include', includedBy: path.join(root, 'proj/docs/style.md'), content: 'common\n' });
    expect(context.instructions).toContain(`(include: included by ${path.join(root, 'proj/docs/style.md')}):\n\ncommon`);
    expect(context.warnings.map((w) => [w.rule, w.severity, w.message])).toEqual([
      ['include/binary', 'warning', "'./logo.md' is not a text file (NUL byte in its first 8 KiB)"],
    ]);
  });

  it('reports a cycle as a warning and still lists each file of it once', async () => {
    await writeTree(root, {
      'proj/CLAUDE.md': 'top\n@./a.md\n',
      'proj/a.md': 'A\n@./b.md\n',
      'proj/b.md': 'B\n@./a.md\n',
    });
    const context = await getUserContext(options({ cwd: path.join(root, 'proj') }));
    expect(listing(context.files)).toEqual(['include proj/b.md', 'include proj/a.md', 'project proj/CLAUDE.md']);
    expect(context.warnings.map((w) => w.rule)).toEqual(['include/cycle']);
    const [a, b] = [path.join(root, 'proj/a.md'), path.join(root, 'proj/b.md')];
    expect(context.warnings[0]?.message).toContain(`${a} → ${b} → ${a}`);
  });

  it('keeps the depth guard: with the default of 5, an include inside the fifth nested file is refused', async () => {
    const chain = Object.fromEntries(
      [1, 2, 3, 4, 5, 6].map((n) => [`proj/f${n}.md`, n < 6 ? `f${n}\n@./f${n + 1}.md\n` : 'f6\n']),
    );
    await writeTree(root, { ...chain, 'proj/CLAUDE.md': 'top\n@./f1.md\n' });
    const context = await getUserContext(options({ cwd: path.join(root, 'proj') }));
    expect(listing(context.files)).toEqual([5, 4, 3, 2, 1].map((n) => `include proj/f${n}.md`).concat('project proj/CLAUDE.md'));
    expect(context.warnings.map((w) => [w.rule, w.file])).toEqual([['include/depth', path.join(root, 'proj/f5.md')]]);
  });

  it('skips a file claimed by an earlier entry silently, even where a later entry reaches it too deep', async () => {
    await writeTree(root, {
      'proj/CLAUDE.md': 'first\n@./x.md\n',
      'proj/.claude/CLAUDE.md': 'second\n@../y.md\n',
      'proj/y.md': 'y\n@./x.md\n',
      'proj/x.md': 'x\n',
    });
    const limits = { extensions: ['.md'], maxDepth: 1, maxBytes: 1024, stripComments: true };
    const context = await getUserContext(options({ cwd: path.join(root, 'proj'), limits }));
    expect(listing(context.files)).toEqual([
      'include proj/x.md',
      'project proj/CLAUDE.md',
      'include proj/y.md',
      'project proj/.claude/CLAUDE.md',
    ]);
    expect(context.warnings).toEqual([]);
  });

  it('refuses an include with a non-text extension, with a warning', async () => {
    await writeTree(root, { 'proj/CLAUDE.md': 'see @./diagram.png\n', 'proj/diagram.png': 'fake' });
    const context = await getUserContext(options({ cwd: path.join(root, 'proj') }));
    expect(listing(context.files)).toEqual(['project proj/CLAUDE.md']);
    expect(context.warnings.map((w) => w.rule)).toEqual(['include/extension']);
  });
});

describe('rules files with paths:', () => {
  const RULES_TREE = {
    'proj/.claude/rules/always.md': 'always\n',
    'proj/.claude/rules/broken.md': '---\npaths: 3\n---\nbroken\n',
    'proj/.claude/rules/tests.md': '---\npaths: "*.test.ts"\n---\ntests rule\n',
    'proj/.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nts rule\n@../../shared.md\n',
    'proj/CLAUDE.local.md': 'local\n@./shared.md\n',
    'proj/shared.md': 'shared\n',
    'proj/pkg/.keep': '',
  };

  it('applies a rule only when a file in play matches its globs, relative to the project holding the rules folder', async () => {
    await writeTree(root, RULES_TREE);
    // From proj/pkg, `../src/a.ts` is proj/src/a.ts: it matches `src/**/*.ts` relative to proj.
    const context = await getUserContext(options({ cwd: path.join(root, 'proj/pkg'), filesInPlay: ['../src/a.ts'] }));
    expect(listing(context.files)).toEqual([
      'rules proj/.claude/rules/always.md',
      'include proj/shared.md',
      'rules proj/.claude/rules/ts.md',
      'local proj/CLAUDE.local.md',
    ]);
    expect(context.warnings.map((w) => [w.rule, w.file])).toEqual([
      ['frontmatter/invalid-field', path.join(root, 'proj/.claude/rules/broken.md')],
    ]);
  });

  it('matches from the rules project, not the working directory; a skipped rule leaves its includes to later files', async () => {
    await writeTree(root, RULES_TREE);
    // proj/pkg/src/a.ts is pkg/src/a.ts relative to proj: `src/**/*.ts` does not match. `*.test.ts` matches at any depth.
    const context = await getUserContext(
      options({ cwd: path.join(root, 'proj/pkg'), filesInPlay: ['src/a.ts', path.join(root, 'proj/lib/deep/x.test.ts')] }),
    );
    expect(listing(context.files)).toEqual([
      'rules proj/.claude/rules/always.md',
      'rules proj/.claude/rules/tests.md',
      'include proj/shared.md',
      'local proj/CLAUDE.local.md',
    ]);
    const shared = context.files.find((f) => f.path.endsWith('shared.md'));
    expect(shared).toMatchObject({ includedBy: path.join(root, 'proj/CLAUDE.local.md') });
  });

  it('never matches files outside the project, and applies nothing conditional without files in play', async () => {
    await writeTree(root, { ...RULES_TREE, 'other/src/a.ts': '' });
    const filesInPlay = [path.join(root, 'other/src/a.ts'), '../other/x.test.ts'];
    const outside = await getUserContext(options({ cwd: path.join(root, 'proj'), filesInPlay }));
    const none = await getUserContext(options({ cwd: path.join(root, 'proj') }));
    for (const context of [outside, none]) {
      expect(listing(context.files).filter((f) => f.startsWith('rules '))).toEqual(['rules proj/.claude/rules/always.md']);
    }
  });

  it('matches the globs of an added directory relative to that directory', async () => {
    await writeTree(root, {
      'extra/.claude/rules/docs.md': '---\npaths: ["docs/**"]\n---\ndocs rule\n',
      'proj/.keep': '',
    });
    const cwd = path.join(root, 'proj');
    const added = [path.join(root, 'extra')];
    const inExtra = [path.join(root, 'extra/docs/guide/intro.md')];
    const hit = await getUserContext(options({ cwd, additionalDirectories: added, filesInPlay: inExtra }));
    const miss = await getUserContext(options({ cwd, additionalDirectories: added, filesInPlay: ['docs/intro.md'] }));
    expect(listing(hit.files)).toEqual(['rules extra/.claude/rules/docs.md']);
    expect(listing(miss.files)).toEqual([]);
  });
});
