/**
 * Instruction files read through symlinks (getUserContext, the public API, on
 * real trees): a file is judged by what it really is, and a link may not lead
 * out of the folder the file belongs to. A secret placed where a link points
 * must never reach the prompt.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DISABLE_ENV, getUserContext, type UserContext } from '../../compiler/context/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const SECRET = 'BEGIN OPENSSH PRIVATE KEY do-not-leak';

let root: string;
let home: string;
let project: string;

beforeEach(async () => {
  root = await tempDir('pb-context-links-');
  vi.stubEnv(DISABLE_ENV, '');
  home = path.join(root, 'home');
  project = path.join(root, 'home/work/proj');
  await writeTree(root, {
    'home/.ssh/id_rsa': `${SECRET}\n`,
    'home/.ssh/notes.md': `${SECRET} (a Markdown name)\n`,
    'outside/secret.md': `${SECRET} (outside the home)\n`,
    'home/work/proj/.keep': '',
  });
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await fs.rm(root, { recursive: true, force: true });
});

async function context(): Promise<UserContext> {
  return getUserContext({ cwd: project, homeDir: home, managedPath: null });
}

/** Everything the model would see, and the warnings as `rule file:line message`. */
function seen(result: UserContext): { prompt: string; warnings: string[] } {
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  return {
    prompt: result.files.map((f) => f.content).join('\n'),
    warnings: result.warnings.map((w) => `${w.rule} ${rel(path.resolve(project, w.file))}:${w.line} ${w.message}`),
  };
}

describe('instruction files through symlinks', () => {
  it('an include that links to a file with no text extension is refused at its directive', async () => {
    await writeTree(project, { 'CLAUDE.md': 'Rules\n@./notes.md\n' });
    await fs.symlink(path.join(home, '.ssh/id_rsa'), path.join(project, 'notes.md'));
    const { prompt, warnings } = seen(await context());
    expect(prompt).not.toContain(SECRET);
    expect(prompt).toContain('Rules');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^include\/(extension|outside-root) home\/work\/proj\/CLAUDE\.md:2 '\.\/notes\.md' /);
  });

  it('a link with a text extension is still refused when it leaves the project', async () => {
    await writeTree(project, { 'CLAUDE.md': 'Rules\n@./notes.md\n' });
    await fs.symlink(path.join(home, '.ssh/notes.md'), path.join(project, 'notes.md'));
    const { prompt, warnings } = seen(await context());
    expect(prompt).not.toContain(SECRET);
    expect(warnings).toEqual([
      `include/outside-root home/work/proj/CLAUDE.md:2 './notes.md' leads outside ${await fs.realpath(project)} through a symlink`,
    ]);
  });

  it('the real path is judged by its extension too, even inside the project', async () => {
    await writeTree(project, { 'CLAUDE.md': 'Rules\n@./notes.md\n', 'key.pem': `${SECRET}\n` });
    await fs.symlink('key.pem', path.join(project, 'notes.md'));
    const { prompt, warnings } = seen(await context());
    expect(prompt).not.toContain(SECRET);
    expect(warnings).toEqual([
      "include/extension home/work/proj/CLAUDE.md:2 './notes.md' links to a '.pem' file; only text files may be included (.md, .markdown, .mdx, .txt, .text)",
    ]);
  });

  it('a CLAUDE.md that is itself a link out of the project is refused at its own first line', async () => {
    await fs.symlink(path.join(root, 'outside/secret.md'), path.join(project, 'CLAUDE.md'));
    const { prompt, warnings } = seen(await context());
    expect(prompt).not.toContain(SECRET);
    expect(warnings).toEqual([
      `include/outside-root home/work/proj/CLAUDE.md:1 '${path.join(project, 'CLAUDE.md')}' leads outside ${await fs.realpath(project)} through a symlink`,
    ]);
  });

  it('a rules file linking out of its project is refused', async () => {
    await fs.mkdir(path.join(project, '.claude/rules'), { recursive: true });
    await fs.symlink(path.join(home, '.ssh/notes.md'), path.join(project, '.claude/rules/style.md'));
    const { prompt, warnings } = seen(await context());
    expect(prompt).not.toContain(SECRET);
    expect(warnings.map((w) => w.split(' ')[0])).toEqual(['include/outside-root']);
  });

  it('links that stay inside: CLAUDE.md -> AGENTS.md, a stow-style home file, `@~/` includes', async () => {
    await writeTree(root, {
      'home/dotfiles/claude.md': 'user file via stow\n@~/prefs.md\n',
      'home/prefs.md': 'home prefs\n',
      'home/work/proj/AGENTS.md': 'agents text\n@./docs/a.md\n',
      'home/work/proj/docs/a.md': 'doc a\n',
    });
    await fs.mkdir(path.join(home, '.claude'));
    await fs.symlink(path.join(home, 'dotfiles/claude.md'), path.join(home, '.claude/CLAUDE.md'));
    await fs.symlink('AGENTS.md', path.join(project, 'CLAUDE.md'));
    const result = await context();
    const { prompt, warnings } = seen(result);
    expect(warnings).toEqual([]);
    for (const text of ['user file via stow', 'home prefs', 'agents text', 'doc a']) expect(prompt).toContain(text);
  });

  it('an absolute include is the user asking: allowed, but not through a link out of its folder', async () => {
    await writeTree(root, { 'shared/team.md': 'team rules\n', 'shared/sub/x.md': 'sub\n' });
    await fs.symlink(path.join(root, 'outside/secret.md'), path.join(root, 'shared/leak.md'));
    await writeTree(project, { 'CLAUDE.md': `@${path.join(root, 'shared/team.md')}\n@${path.join(root, 'shared/leak.md')}\n` });
    const { prompt, warnings } = seen(await context());
    expect(prompt).toContain('team rules');
    expect(prompt).not.toContain(SECRET);
    expect(warnings.map((w) => w.split(' ').slice(0, 2).join(' '))).toEqual(['include/outside-root home/work/proj/CLAUDE.md:2']);
  });

  it('a FIFO behind a link is refused as a FIFO, without blocking', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(project, 'pipe.md')]);
    await fs.symlink('pipe.md', path.join(project, 'notes.md'));
    await writeTree(project, { 'CLAUDE.md': 'Rules\n@./notes.md\n' });
    const { warnings } = seen(await context());
    expect(warnings).toEqual(["include/not-a-file home/work/proj/CLAUDE.md:2 './notes.md' is a FIFO (named pipe), not a regular file"]);
  });
});

describe('the memory directory through symlinks', () => {
  it('an index linking out of the memory directory is not loaded, and is listed to fix', async () => {
    const { loadMemoryPrompt } = await import('../../compiler/context/index.js');
    const memory = path.join(root, 'memory');
    await fs.mkdir(memory);
    await fs.symlink(path.join(root, 'outside/secret.md'), path.join(memory, 'MEMORY.md'));
    const prompt = (await loadMemoryPrompt({ memoryDir: memory }))!;
    expect(prompt).not.toContain(SECRET);
    expect(prompt).toContain('- `MEMORY.md`: is a symlink leading outside the memory directory; not read');
  });

  it('an index that is a FIFO does not block, and one that is a link inside the directory is read', async () => {
    const { loadMemoryPrompt } = await import('../../compiler/context/index.js');
    const { execFileSync } = await import('node:child_process');
    const memory = path.join(root, 'memory');
    await fs.mkdir(memory);
    execFileSync('mkfifo', [path.join(memory, 'MEMORY.md')]);
    expect(await loadMemoryPrompt({ memoryDir: memory })).toContain('- `MEMORY.md`: is a FIFO (named pipe), not a regular file');
    await fs.rm(path.join(memory, 'MEMORY.md'));
    await writeTree(memory, { 'index.txt': '- [Tabs](tabs.md): tabs\n' });
    await fs.symlink('index.txt', path.join(memory, 'MEMORY.md'));
    expect(await loadMemoryPrompt({ memoryDir: memory })).toContain('## MEMORY.md\n\n- [Tabs](tabs.md): tabs');
  });

  it('a memory file linking out is listed, and its bytes are never quoted', async () => {
    const { loadMemoryPrompt } = await import('../../compiler/context/index.js');
    const memory = path.join(root, 'memory');
    await writeTree(root, { 'outside/broken.md': `---\nname: [${SECRET}\n---\n` });
    await fs.mkdir(memory);
    await fs.symlink(path.join(root, 'outside/broken.md'), path.join(memory, 'leak.md'));
    const prompt = (await loadMemoryPrompt({ memoryDir: memory }))!;
    expect(prompt).not.toContain(SECRET);
    expect(prompt).toContain('- `leak.md`: is a symlink leading outside the memory directory; not read');
  });
});
