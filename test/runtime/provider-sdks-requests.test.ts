/**
 * The request planners' output handed to the real SDK clients
 * (devDependencies), as a service would, with the transport stubbed: no
 * network. Each SDK serialises the request; the body it would send holds
 * exactly the planned tools, system, messages and cache markers — the
 * Bedrock client drops any key its schema does not know, so equality also
 * shows every cache point is one it sends.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { BedrockRuntimeClient, ConverseCommand, type Message, type ToolConfiguration } from '@aws-sdk/client-bedrock-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSectionCache, getSystemPrompt, loadBundle, toAnthropicRequest, toBedrockRequest, type SystemPrompt } from '../../compiler/runtime/index.js';
import { bodyOf, CAPTURING_BEDROCK, captureFetch } from '../helpers/sdk-capture.js';
import { FIXTURE_DIR } from './fixture.js';

let prompt: SystemPrompt;
beforeAll(async () => {
  prompt = await getSystemPrompt(await loadBundle(FIXTURE_DIR), { context: { cwd: '/repo' }, cache: createSectionCache() });
});

const tools: ToolUnion[] = [
  { name: 'read', description: 'Read a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'grep', description: 'Search files.', input_schema: { type: 'object', properties: { pattern: { type: 'string' } } } },
];
const messages: MessageParam[] = [
  { role: 'user', content: 'Hello.' },
  { role: 'assistant', content: [{ type: 'text', text: 'Hi.', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
  { role: 'user', content: 'List the files.' },
];

describe('the real SDK clients take the planned requests as they are', () => {
  it('Anthropic: messages.create sends the planned tools, system, messages', async () => {
    const client = new Anthropic({ apiKey: 'test', fetch: captureFetch as never, maxRetries: 0 });
    const { request, breakpoints, dropped } = toAnthropicRequest({ system: prompt, tools, messages }, { staticTtl: '1h' });
    const body = await bodyOf(() => client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, ...request }));
    expect(body).toMatchObject(JSON.parse(JSON.stringify(request)));
    expect(body.tools).toEqual(request.tools);
    expect(body.messages).toEqual(request.messages);
    // Exactly the breakpoints the plan reports, at most 4, in the request the SDK sends.
    expect(JSON.stringify(body).match(/"cache_control"/g)).toHaveLength(breakpoints.length);
    expect(breakpoints.length).toBeLessThanOrEqual(4);
    expect(dropped.map((d) => d.at)).toEqual(['end of system']);
  });

  it('Anthropic: automatic caching sends one top-level cache_control', async () => {
    const client = new Anthropic({ apiKey: 'test', fetch: captureFetch as never, maxRetries: 0 });
    const { request } = toAnthropicRequest({ system: prompt, tools, messages: [{ role: 'user', content: 'Hi.' }] }, { automatic: true });
    const body = await bodyOf(() => client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, ...request }));
    expect(body.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi.' }]);
    expect(JSON.stringify(body).match(/"cache_control"/g)).toHaveLength(4);
  });

  it('Bedrock: ConverseCommand sends the planned toolConfig, system and messages with their cache points', async () => {
    const client = new BedrockRuntimeClient(CAPTURING_BEDROCK);
    const toolConfig: ToolConfiguration = { tools: [{ toolSpec: { name: 'read', description: 'Read a file.', inputSchema: { json: { type: 'object' } } } }], toolChoice: { auto: {} } };
    const converse: Message[] = [
      { role: 'user', content: [{ text: 'Hello.' }] },
      { role: 'assistant', content: [{ text: 'Hi.' }] },
      { role: 'user', content: [{ text: 'List the files.' }] },
    ];
    const { request, breakpoints } = toBedrockRequest({ system: prompt, toolConfig, messages: converse }, { ttl: '5m', staticTtl: '1h' });
    const body = await bodyOf(() => client.send(new ConverseCommand({ modelId: 'anthropic.claude-haiku-4-5-20251001-v1:0', ...request })));
    expect(body.toolConfig).toEqual(request.toolConfig);
    expect(body.system).toEqual(request.system);
    expect(body.messages).toEqual(request.messages);
    expect(JSON.stringify(body).match(/"cachePoint"/g)).toHaveLength(4);
    expect(breakpoints.map((b) => [b.at, b.ttl])).toEqual([
      ['end of tools', '1h'],
      ['end of static prefix', '1h'],
      ['end of system', '5m'],
      ['last user turn', '5m'],
    ]);
  });
});
