import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createContextSession,
  DISABLE_ENV,
  fetchSystemPromptParts,
  type SystemContext,
  type UserContext,
} from '../../compiler/context/index.js';
import { fetchParts } from '../../compiler/context/parts.js';
import { tempDir, writeTree } from '../helpers/tree.js';
import { commitFile, initRepo, isolateGit } from './repo.js';

let root: string;

beforeEach(async () => {
  root = await tempDir('pb-parts-');
  await isolateGit(root);
  vi.stubEnv(DISABLE_ENV, '');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await fs.rm(root, { recursive: true, force: true });
});

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const USER: UserContext = { instructions: 'be brief', files: [], currentDate: "Today's date is 2024-01-05.", warnings: [] };

/** Providers that record when they start and finish only when the test says so. */
function heldProviders() {
  const events: string[] = [];
  const held = {
    defaultSystemPrompt: deferred<readonly string[]>(),
    userContext: deferred<UserContext>(),
    systemContext: deferred<SystemContext>(),
  };
  const provider =
    <T>(name: string, d: Deferred<T>) =>
    (): Promise<T> => {
      events.push(`start ${name}`);
      return d.promise.then((value) => {
        events.push(`finish ${name}`);
        return value;
      });
    };
  return {
    events,
    held,
    providers: {
      defaultSystemPrompt: provider('default', held.defaultSystemPrompt),
      userContext: provider('user', held.userContext),
      systemContext: provider('system', held.systemContext),
    },
  };
}

describe('fetchParts', () => {
  it('starts all three parts before any of them finishes', async () => {
    const { events, held, providers } = heldProviders();
    const parts = fetchParts(providers, false);
    await Promise.resolve();
    expect(events).toEqual(['start default', 'start user', 'start system']);
    held.systemContext.resolve({ gitStatus: 'snapshot' });
    held.userContext.resolve(USER);
    held.defaultSystemPrompt.resolve(['intro', 'rules']);
    expect(await parts).toEqual({
      defaultSystemPrompt: ['intro', 'rules'],
      userContext: { claudeMd: 'be brief', currentDate: "Today's date is 2024-01-05." },
      systemContext: { gitStatus: 'snapshot' },
      warnings: [],
    });
    expect(events.slice(3)).toEqual(['finish system', 'finish user', 'finish default']);
  });

  it('with a custom prompt, builds neither the default prompt nor the system context', async () => {
    const { events, held, providers } = heldProviders();
    const parts = fetchParts(providers, true);
    held.userContext.resolve({ ...USER, instructions: null });
    expect(await parts).toEqual({
      defaultSystemPrompt: null,
      userContext: { currentDate: "Today's date is 2024-01-05." },
      systemContext: null,
      warnings: [],
    });
    expect(events).toEqual(['start user', 'finish user']);
  });
});

describe('fetchSystemPromptParts', () => {
  it('fetches the default prompt, the instruction files and the git snapshot of the working directory', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await writeTree(repo, { 'CLAUDE.md': 'Use tabs.\n', '.claude/rules/bad.md': '---\npaths: 3\n---\nbad\n' });
    await commitFile(repo, 'CLAUDE.md', 'Use tabs.\n', 'first');
    const parts = await fetchSystemPromptParts({
      getDefaultSystemPrompt: async () => ['static', 'dynamic'],
      cwd: repo,
      homeDir: path.join(root, 'home'),
      managedPath: null,
      now: new Date(2024, 6, 1),
    });
    expect(parts.defaultSystemPrompt).toEqual(['static', 'dynamic']);
    expect(parts.userContext.currentDate).toBe("Today's date is 2024-07-01.");
    expect(parts.userContext.claudeMd).toContain(`Contents of ${path.join(repo, 'CLAUDE.md')} (project: `);
    expect(parts.userContext.claudeMd).toContain('Use tabs.');
    expect(parts.systemContext?.gitStatus).toContain('\nCurrent branch: main\n');
    expect(parts.warnings.map((w) => w.rule)).toEqual(['frontmatter/invalid-field']);
  });

  it('with a custom system prompt, never calls the default builder and takes no git snapshot', async () => {
    const repo = await initRepo(path.join(root, 'repo'));
    await commitFile(repo, 'CLAUDE.md', 'Use tabs.\n', 'first');
    const getDefaultSystemPrompt = vi.fn(async () => ['never']);
    const session = createContextSession();
    const parts = await fetchSystemPromptParts({
      getDefaultSystemPrompt,
      customSystemPrompt: 'You are a pirate.',
      session,
      cwd: repo,
      homeDir: path.join(root, 'home'),
      managedPath: null,
    });
    expect(getDefaultSystemPrompt).not.toHaveBeenCalled();
    expect(parts.defaultSystemPrompt).toBeNull();
    expect(parts.systemContext).toBeNull();
    expect(parts.userContext.claudeMd).toContain('Use tabs.');
    // No snapshot was memoised either: the session computes one only now, and sees the later commit.
    await commitFile(repo, 'b.txt', 'b', 'after the custom prompt');
    const later = await fetchSystemPromptParts({
      getDefaultSystemPrompt: async () => [],
      session,
      cwd: repo,
      homeDir: root,
      managedPath: null,
    });
    expect(later.systemContext?.gitStatus).toContain(' after the custom prompt');
  });
});
