/** The repository's own prompt set: it builds clean, dist/ is current, and every profile and agent renders. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { CONTEXT_PROFILE, createSectionCache, getSystemPrompt, loadBundle, SYSTEM_PROMPT_DYNAMIC_BOUNDARY } from '../../compiler/runtime/index.js';
import { readTree, REPO } from '../helpers/tree.js';

const FULL_CONTEXT = {
  cwd: '/work/project',
  isGitRepo: true,
  platform: 'linux',
  shell: 'bash',
  osVersion: 'Linux 6.1',
  model: 'claude-sonnet-4-5',
  knowledgeCutoff: 'early 2025',
  additionalDirectories: ['/work/shared'],
  memory: '# Memory\n- user prefers small commits',
  language: 'German',
  modelOverride: 'claude-opus-4',
  outputStyle: { name: 'Explanatory', instructions: 'Explain your choices.' },
  mcpServers: [{ name: 'github', instructions: 'Issues and pull requests.' }],
  scratchpadDir: '/tmp/scratch',
  keepRecentToolResults: 3,
  tokenBudget: 100000,
  gitStatus: 'Current branch: main',
  interactive: true,
  availableAgents: [{ name: 'explore', description: 'Searches code.' }],
  skills: [{ name: 'pdf', description: 'Reads PDFs.' }],
  customInstructions: 'Focus on the test failures.',
};

describe('the embedded prompt set', () => {
  it('builds with no diagnostic, and the committed dist/ is exactly what it builds', async () => {
    const compiler = await createCompiler({ root: REPO, cacheDir: null });
    const result = await compiler.build();
    expect(result.diagnostics).toEqual([]);
    const committed = await readTree(path.join(REPO, 'dist'));
    expect([...committed.keys()]).toEqual([...result.bundle!.files.keys()].sort());
    for (const [file, content] of result.bundle!.files) expect(committed.get(file)!.toString('utf8'), file).toBe(content);
  });

  it('default has a static prefix worth caching (≥ 1,024 estimated tokens) and its uncached section gives a reason', async () => {
    const bundle = await loadBundle(path.join(REPO, 'dist'));
    const profile = bundle.manifest.profiles.default!;
    expect(profile.staticTokens).toBeGreaterThanOrEqual(1024);
    expect(profile.boundaryIndex).toBe(7);
    const uncached = profile.sections.filter((s) => s.kind === 'dynamic' && s.cache === 'uncached');
    expect(uncached.map((s) => s.name)).toEqual(['mcp-instructions']);
    expect(uncached[0]!.kind === 'dynamic' && uncached[0]!.reason).toMatch(/connect/);
  });

  it('every profile renders with a full context, and with only the required inputs', async () => {
    const bundle = await loadBundle(path.join(REPO, 'dist'));
    // The context profile is wording rendered text by text from the providers' data (test/context/wording.test.ts), not a system prompt.
    for (const name of Object.keys(bundle.manifest.profiles).filter((n) => n !== CONTEXT_PROFILE)) {
      const full = await getSystemPrompt(bundle, { profile: name, context: FULL_CONTEXT, cache: createSectionCache() });
      const required = Object.fromEntries(['cwd', 'isGitRepo', 'platform'].map((k) => [k, FULL_CONTEXT[k as keyof typeof FULL_CONTEXT]]));
      const minimal = await getSystemPrompt(bundle, { profile: name, context: required, cache: createSectionCache() });
      expect(full.length, name).toBeGreaterThanOrEqual(minimal.length);
      for (const part of full) expect(part.trim().length, name).toBeGreaterThan(0);
      expect(full.join('\n'), name).not.toMatch(/\{\{/);
    }
    const full = await getSystemPrompt(bundle, { context: FULL_CONTEXT, cache: createSectionCache() });
    const dynamic = full.slice(full.indexOf(SYSTEM_PROMPT_DYNAMIC_BOUNDARY) + 1);
    expect(dynamic.length).toBeGreaterThanOrEqual(10);
  });

  it('every agent has a prompt, a description and tools', async () => {
    const bundle = await loadBundle(path.join(REPO, 'dist'));
    expect([...bundle.agents.keys()].sort()).toEqual(['explore', 'general-purpose', 'plan', 'verification']);
    for (const [name, agent] of bundle.agents) {
      expect(agent.prompt.length, name).toBeGreaterThan(500);
      expect(agent.definition.description.length).toBeGreaterThan(10);
      expect(agent.definition.tools.length).toBeGreaterThan(0);
    }
    expect(bundle.agents.get('explore')!.definition.tools).not.toContain('Edit');
  });
});
