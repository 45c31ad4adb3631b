/**
 * Acceptance: every profile (in every mode) and every agent of the
 * repository's own `dist/`, rendered by the Python runtime and by Node with
 * the same contexts, is byte-identical — the prompt and each provider's
 * blocks. Python runs as a real `python3` process on the committed bundle.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as rt from '../../compiler/runtime/index.js';
import { REPO } from '../helpers/tree.js';

const DIST = path.join(REPO, 'dist');

const FULL = {
  cwd: '/home/dev/project',
  isGitRepo: true,
  platform: 'linux',
  shell: 'zsh',
  osVersion: 'Linux 6.8',
  model: 'claude-sonnet-4-5',
  knowledgeCutoff: 'January 2025',
  additionalDirectories: ['/home/dev/lib', '/tmp/ünï'],
  customInstructions: 'Focus on the failing tests.',
  language: 'Deutsch',
  interactive: true,
  availableAgents: [{ name: 'explore', description: 'reads code' }, { name: 'plan', description: 'plans' }],
  skills: [{ name: 'pdf', description: 'reads PDFs <fast> & "well"' }],
  memory: '# Memory\n- [user](user.md) — prefers tabs {{not a template}}',
  modelOverride: 'claude-opus-4-5',
  outputStyle: 'Explanatory',
  scratchpadDir: '/tmp/scratch',
  keepRecentToolResults: 3,
  tokenBudget: 200000,
  gitStatus: 'Current branch: main\n\nStatus:\nM a.ts',
  mcpServers: [{ name: 'git', instructions: 'Use git tools.' }, { name: 'db', instructions: 'Read only.\n' }],
};
const MINIMAL = { cwd: '/w', isGitRepo: false, platform: 'darwin' };
const ODD = { ...MINIMAL, isGitRepo: 0, additionalDirectories: [], keepRecentToolResults: 0, tokenBudget: 1e21, language: '', mcpServers: {}, skills: [], memory: ' \n' };

interface Case {
  contextText?: rt.ContextText;
  userContext?: Record<string, string>;
  profile?: string;
  mode?: string;
  agent?: string;
  environment?: string[];
  context: Record<string, unknown>;
}

async function nodeRender(bundle: rt.Bundle, c: Case): Promise<unknown> {
  if (c.contextText) return { text: rt.renderContextText(bundle, c.contextText, c.context) };
  if (c.userContext) return { messages: rt.prependUserContext([], c.userContext, bundle) };
  const prompt = c.agent
    ? rt.getAgentSystemPrompt(bundle, c.agent, c.environment ? { environment: c.environment } : {})
    : await rt.getSystemPrompt(bundle, { context: c.context, cache: rt.createSectionCache(), ...(c.profile ? { profile: c.profile } : {}), ...(c.mode ? { mode: c.mode as rt.PromptMode } : {}) });
  return {
    prompt: [...prompt],
    anthropic: rt.toAnthropicSystem(prompt),
    bedrock: rt.toBedrockSystem(prompt, { ttl: '1h' }),
    openai: rt.toOpenAIRequest(prompt),
    gemini: rt.toGeminiSystemInstruction(prompt),
  };
}

describe('the Python runtime on the repository bundle', () => {
  it('renders every profile, mode and agent byte-identically to Node', async () => {
    const bundle = await rt.loadBundle(DIST);
    const cases: Case[] = [];
    for (const context of [FULL, MINIMAL, ODD]) {
      // The context profile is wording rendered text by text (below), not a system prompt.
      for (const profile of bundle.profiles.keys()) if (profile !== rt.CONTEXT_PROFILE) cases.push({ profile, context });
      for (const mode of ['simple', 'proactive']) cases.push({ mode, context });
    }
    for (const agent of bundle.agents.keys()) cases.push({ agent, context: {} }, { agent, environment: ['cwd: /w', 'platform: linux'], context: {} });
    expect(cases.length).toBeGreaterThan(bundle.profiles.size * 3);
    // The context wording, from the data the code rendered before it moved into the prompt set.
    const before = JSON.parse(await fs.readFile(path.join(REPO, 'test/context/wording/before.json'), 'utf8')) as {
      gitSnapshot: Array<{ input: Record<string, unknown> }>;
      userContext: Array<{ input: Record<string, string> }>;
    };
    for (const c of before.gitSnapshot) cases.push({ contextText: 'git-snapshot', context: c.input });
    for (const c of before.userContext) cases.push({ userContext: c.input, context: {} });
    cases.push({ contextText: 'current-date', context: { date: '2026-12-02' } });
    cases.push({ contextText: 'instructions', context: { files: [{ path: '/p/CLAUDE.md', project: true, content: 'Ünï {{x}}' }, { path: '/p/a.md', include: true, includedBy: '/p/CLAUDE.md', content: 'A' }] } });

    const run = spawnSync('python3', [path.join(REPO, 'python/tests/render_cli.py')], {
      input: JSON.stringify({ bundle: DIST, cases }),
      env: { ...process.env, PYTHONPATH: path.join(REPO, 'python/src'), PYTHONDONTWRITEBYTECODE: '1' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const python = JSON.parse(run.stdout) as unknown[];
    for (const [index, c] of cases.entries()) {
      const node = await nodeRender(bundle, c);
      // Byte-identical: compare the JSON texts, key order included.
      expect(JSON.stringify(python[index]), JSON.stringify({ ...c, context: undefined })).toBe(JSON.stringify(node));
    }
  });
});
