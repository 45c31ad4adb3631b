/**
 * The adapters' output handed to the real SDK clients (devDependencies), as a
 * service would, with the transport stubbed: no network. Each SDK serialises
 * the request, and the body it would send holds exactly our blocks.
 */
import Anthropic from '@anthropic-ai/sdk';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createSectionCache,
  getSystemPrompt,
  loadBundle,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
  toAnthropicSystem,
  toBedrockSystem,
  toGeminiSystemInstruction,
  toOpenAIRequest,
  type SystemPrompt,
} from '../../compiler/runtime/index.js';
import { bodyOf, CAPTURING_BEDROCK, captureFetch } from '../helpers/sdk-capture.js';
import { FIXTURE_DIR } from './fixture.js';

let prompt: SystemPrompt;
beforeAll(async () => {
  prompt = await getSystemPrompt(await loadBundle(FIXTURE_DIR), { context: { cwd: '/repo' }, cache: createSectionCache() });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the real SDK clients take the adapters’ output as it is', () => {
  it('Anthropic: messages.create sends our system blocks', async () => {
    const client = new Anthropic({ apiKey: 'test', fetch: captureFetch as never, maxRetries: 0 });
    const system = toAnthropicSystem(prompt, { staticTtl: '1h' });
    const body = await bodyOf(() =>
      client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, system, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(body.system).toEqual(system);
    expect(JSON.stringify(body)).not.toContain(SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  });

  it('OpenAI: responses.create sends our instructions and prompt_cache_key', async () => {
    const client = new OpenAI({ apiKey: 'test', fetch: captureFetch as never, maxRetries: 0 });
    const request = toOpenAIRequest(prompt);
    const body = await bodyOf(() => client.responses.create({ model: 'gpt-5', input: 'hi', ...request }));
    expect(body).toMatchObject({ instructions: request.instructions, prompt_cache_key: request.prompt_cache_key });
    expect(request.prompt_cache_key).toMatch(/^pb-/);
  });

  it('OpenAI, GPT-5.6: responses.create sends our developer message with its explicit breakpoints, before the conversation', async () => {
    const client = new OpenAI({ apiKey: 'test', fetch: captureFetch as never, maxRetries: 0 });
    const request = toOpenAIRequest(prompt, { model: 'gpt-5.6' });
    if (!('input' in request)) throw new Error('expected the input form for gpt-5.6');
    const input = [...request.input, { role: 'user' as const, content: 'hi' }];
    const body = await bodyOf(() => client.responses.create({ model: 'gpt-5.6', ...request, input }));
    expect(body.input).toEqual(input);
    expect(body.prompt_cache_options).toEqual({ mode: 'implicit' });
    expect(body.prompt_cache_key).toBe(request.prompt_cache_key);
    expect(body).not.toHaveProperty('instructions');
    expect(JSON.stringify(body)).not.toContain(SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
  });

  it('Bedrock: ConverseCommand sends our system content blocks', async () => {
    const client = new BedrockRuntimeClient(CAPTURING_BEDROCK);
    const system = toBedrockSystem(prompt, { ttl: '5m' });
    const body = await bodyOf(() =>
      client.send(new ConverseCommand({ modelId: 'anthropic.claude-haiku-4-5-20251001-v1:0', system, messages: [{ role: 'user', content: [{ text: 'hi' }] }] })),
    );
    expect(body.system).toEqual(system);
  });

  it('Gemini: generateContent sends our systemInstruction', async () => {
    vi.stubGlobal('fetch', captureFetch);
    const client = new GoogleGenAI({ apiKey: 'test' });
    const systemInstruction = toGeminiSystemInstruction(prompt);
    const body = await bodyOf(() => client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { systemInstruction } }));
    expect(body.systemInstruction).toMatchObject(systemInstruction);
  });
});
