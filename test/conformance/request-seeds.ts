/**
 * The inputs of `requests.json`: calls of the request planners
 * (`toAnthropicRequest`, `toBedrockRequest`) both runtimes make. Expected
 * values come from the JavaScript runtime (request-vectors.test.ts);
 * python/tests/test_request_vectors.py runs every case in Python.
 *
 * A case's `input` is the planner's first argument without `system`, which is
 * `system` (the prompt's parts); `options` its second (Python: keyword
 * arguments, snake_case). In refusals, `{"$promise": x}` stands for an
 * un-awaited x (a Promise; in Python a coroutine).
 */

export interface RequestSeed {
  name: string;
  call: 'toAnthropicRequest' | 'toBedrockRequest';
  system: unknown;
  input?: Record<string, unknown>;
  options?: Record<string, unknown>;
}

const B = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';
const MIXED = ['Static one.', 'Static two.', B, 'cwd: /work'];
const STATIC_ONLY = ['Static one.', 'Static two.', B];
const NO_BOUNDARY = ['Custom prompt.', 'More of it.'];

const ONE_H = { type: 'ephemeral', ttl: '1h' };
const FIVE_M = { type: 'ephemeral', ttl: '5m' };
const DEFAULT = { type: 'ephemeral' };
const tool = (name: string, cache_control?: unknown) => ({
  name,
  description: `The ${name} tool.`,
  input_schema: { type: 'object', properties: { q: { type: 'string' } } },
  ...(cache_control === undefined ? {} : { cache_control }),
});
const text = (t: string, cache_control?: unknown) => ({ type: 'text', text: t, ...(cache_control === undefined ? {} : { cache_control }) });
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const TOOLS = [tool('read'), tool('grep')];
const CHAT = [user('Hello.'), assistant('Hi! What can I do?'), user('List the files.')];

const a = (name: string, system: unknown, input?: Record<string, unknown>, options?: Record<string, unknown>): RequestSeed => ({
  name,
  call: 'toAnthropicRequest',
  system,
  ...(input ? { input } : {}),
  ...(options ? { options } : {}),
});

export const ANTHROPIC_SEEDS: RequestSeed[] = [
  a('no tools, no messages: the two system breakpoints', MIXED),
  a('tools only: end of tools first', MIXED, { tools: TOOLS }),
  a('messages with string content: the last user turn becomes one text block', MIXED, { messages: CHAT }),
  a('messages with block content: the last block of the last user turn', MIXED, {
    messages: [user([text('Look at this.'), { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }]), assistant([text('A cat.')]), user([text('And this?'), text('Be brief.')])],
  }),
  a('all four places', MIXED, { tools: TOOLS, messages: CHAT }),
  a('the caller uses 1 slot (inside the tools): three left, the last user turn dropped', MIXED, { tools: [tool('read', DEFAULT), tool('grep')], messages: CHAT }),
  a('the caller uses 2 slots: the tail and the last user turn dropped', MIXED, {
    tools: [tool('read', DEFAULT), tool('grep')],
    messages: [user([text('Earlier.', DEFAULT)]), assistant('Ok.'), user('Now.')],
  }),
  a('the caller uses 3 slots: only the end of tools placed', MIXED, {
    tools: [tool('read', DEFAULT), tool('grep')],
    messages: [user([text('One.', DEFAULT)]), assistant([text('Two.', DEFAULT)]), user('Now.')],
  }),
  a('the caller uses all 4 slots: every place dropped, the caller’s kept as they are', MIXED, {
    tools: [tool('read', DEFAULT), tool('grep', DEFAULT)],
    messages: [user([text('One.', DEFAULT)]), assistant([text('Two.', DEFAULT)]), user('Now.')],
  }),
  a('the caller already marks the last tool and the last user turn: nothing to add there', MIXED, {
    tools: [tool('read'), tool('grep', ONE_H)],
    messages: [user([text('Now.', FIVE_M)])],
  }),
  a('automatic caching on: the top-level cache_control instead of the last user turn', MIXED, { tools: TOOLS, messages: CHAT }, { automatic: true }),
  a('automatic caching with a TTL no longer than ttl', MIXED, { messages: CHAT }, { ttl: '1h', automatic: { ttl: '1h' } }),
  a('automatic caching without messages (they come later)', MIXED, {}, { automatic: { ttl: '5m' } }),
  a('automatic caching when the last block already holds the caller’s breakpoint: dropped', MIXED, { messages: [user([text('Now.', DEFAULT)])] }, { automatic: true }),
  a('automatic caching with the caller using 3 slots: the tail and automatic dropped', MIXED, {
    tools: [tool('read', DEFAULT), tool('grep', DEFAULT)],
    messages: [user([text('One.', DEFAULT)]), assistant('Two.'), user('Now.')],
  }, { automatic: true }),
  a('TTL mix: 1h static prefix and tools, 5m tail and turn', MIXED, { tools: TOOLS, messages: CHAT }, { ttl: '5m', staticTtl: '1h' }),
  a('TTL mix: a caller 1h in messages after the 5m tail drops the tail and the earlier turn', MIXED, {
    messages: [user('Question.'), assistant([text('Answer kept for an hour.', ONE_H)])],
  }, { staticTtl: '1h' }),
  a('TTL mix: a caller 1h in messages before the 5m last user turn is fine', MIXED, {
    messages: [user([text('Document.', ONE_H)]), assistant('Read it.'), user('Summarise.')],
  }, { staticTtl: '1h' }),
  a('TTL mix: a caller 5m inside the tools drops the 1h end of tools and static prefix', MIXED, { tools: [tool('read', FIVE_M), tool('grep')], messages: CHAT }, { staticTtl: '1h' }),
  a('cache: false places nothing and keeps the caller’s', MIXED, { tools: [tool('read', ONE_H)], messages: CHAT }, { cache: false }),
  a('a static-only prompt: its prefix is the end of system', STATIC_ONLY, { tools: TOOLS, messages: CHAT }, { staticTtl: '1h' }),
  a('a prompt without boundary: all tail, no static prefix breakpoint', NO_BOUNDARY, { tools: TOOLS, messages: CHAT }, { staticTtl: '1h' }),
  a('an empty prompt', [], { messages: CHAT }),
  a('the last user turn is an empty string: dropped, it cannot be cached', MIXED, { messages: [user('')] }),
  a('the last user turn ends in an empty text block: dropped', MIXED, { messages: [user([text('Hi.'), text('')])] }),
  a('the last user turn has no block: dropped', MIXED, { messages: [user([])] }),
  a('no user turn: no turn breakpoint', MIXED, { messages: [assistant('Prefill.')] }),
  a('an assistant prefill after the last user turn: the user turn is marked', MIXED, { messages: [user('Write JSON.'), assistant('{')] }),
  a('cache_control: null is no breakpoint', MIXED, { tools: [tool('read', null)], messages: [user([text('Now.', null)])] }),
  a('a mid-conversation system message and tool results', MIXED, {
    messages: [
      user('Run it.'),
      assistant([{ type: 'tool_use', id: 't1', name: 'run', input: {} }]),
      user([{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }]),
      { role: 'system', content: 'Be terse from now on.' },
    ],
  }),
];

const b = (name: string, system: unknown, input?: Record<string, unknown>, options?: Record<string, unknown>): RequestSeed => ({
  name,
  call: 'toBedrockRequest',
  system,
  ...(input ? { input } : {}),
  ...(options ? { options } : {}),
});

const spec = (name: string) => ({ toolSpec: { name, description: `The ${name} tool.`, inputSchema: { json: { type: 'object' } } } });
const point = (ttl?: string) => ({ cachePoint: ttl === undefined ? { type: 'default' } : { type: 'default', ttl } });
const bUser = (...content: unknown[]) => ({ role: 'user', content });
const bAssistant = (...content: unknown[]) => ({ role: 'assistant', content });
const BCHAT = [bUser({ text: 'Hello.' }), bAssistant({ text: 'Hi!' }), bUser({ text: 'List the files.' })];

export const BEDROCK_SEEDS: RequestSeed[] = [
  b('no tools, no messages: a cache point after each side', MIXED),
  b('all four places; toolChoice kept', MIXED, { toolConfig: { tools: [spec('read'), spec('grep')], toolChoice: { auto: {} } }, messages: BCHAT }),
  b('TTL mix: 1h tools and static prefix, 5m tail and turn', MIXED, { toolConfig: { tools: [spec('read')] }, messages: BCHAT }, { ttl: '5m', staticTtl: '1h' }),
  b('the caller uses all 4 slots: every place dropped', MIXED, {
    toolConfig: { tools: [spec('read'), point(), spec('grep')] },
    messages: [bUser({ text: 'One.' }, point()), bAssistant({ text: 'Two.' }, point()), bUser({ text: 'Three.' }, point(), { text: 'Now.' })],
  }),
  b('the caller’s cache point already closes the tools and the turn', MIXED, { toolConfig: { tools: [spec('read'), point('1h')] }, messages: [bUser({ text: 'Now.' }, point())] }, { staticTtl: '1h' }),
  b('TTL mix: a caller 1h in messages after the 5m tail drops the tail and the earlier turn', MIXED, {
    messages: [bUser({ text: 'Question.' }), bAssistant({ text: 'Answer.' }, point('1h'))],
  }, { staticTtl: '1h' }),
  b('cache: false places nothing', MIXED, { toolConfig: { tools: [spec('read')] }, messages: BCHAT }, { cache: false }),
  b('a static-only prompt', STATIC_ONLY, { messages: BCHAT }, { staticTtl: '1h' }),
  b('a prompt without boundary', NO_BOUNDARY, { messages: BCHAT }),
  b('the last user turn has no block: dropped', MIXED, { messages: [bUser()] }),
  b('an empty tool list: no end of tools', MIXED, { toolConfig: { tools: [] } }),
];

const PROMISE = { $promise: MIXED };

export const REFUSAL_SEEDS: RequestSeed[] = [
  a('an un-awaited prompt', PROMISE),
  a('a string for a prompt', 'You are helpful.'),
  a('a TTL the API does not take', MIXED, {}, { ttl: '2h' }),
  a('a static TTL shorter than the tail’s', MIXED, {}, { ttl: '1h', staticTtl: '5m' }),
  a('messages that are no array', MIXED, { messages: 'Hello.' }),
  a('tools that are no array', MIXED, { tools: { name: 'read' } }),
  a('a message without a role', MIXED, { messages: [{ content: 'Hi.' }] }),
  a('a message whose content is a number', MIXED, { messages: [user(5)] }),
  a('a block without a type', MIXED, { messages: [user([{ text: 'Hi.' }])] }),
  a('a caller breakpoint with a TTL the API does not take', MIXED, { messages: [user([text('Hi.', { type: 'ephemeral', ttl: '10m' })])] }),
  a('a caller breakpoint that is no ephemeral cache_control', MIXED, { tools: [tool('read', { type: 'persistent' })] }),
  a('five caller breakpoints', MIXED, {
    tools: [tool('a', DEFAULT), tool('b', DEFAULT), tool('c', DEFAULT)],
    messages: [user([text('One.', DEFAULT), text('Two.', DEFAULT)])],
  }),
  a('caller breakpoints with a longer TTL after a shorter one', MIXED, { tools: [tool('a', FIVE_M)], messages: [user([text('Hi.', ONE_H)])] }),
  a('automatic that is no boolean or object', MIXED, {}, { automatic: 'yes' }),
  a('an automatic TTL the API does not take', MIXED, {}, { automatic: { ttl: '2h' } }),
  a('automatic caching longer-lived than ttl', MIXED, {}, { automatic: { ttl: '1h' } }),
  a('automatic caching with cache: false', MIXED, {}, { cache: false, automatic: true }),
  a('cache that is no boolean', MIXED, {}, { cache: 'yes' }),
  b('an un-awaited prompt to Bedrock', PROMISE),
  b('a Bedrock TTL it does not take', MIXED, {}, { ttl: '10m' }),
  b('Bedrock messages that are no array', MIXED, { messages: { role: 'user' } }),
  b('Bedrock content that is a string', MIXED, { messages: [{ role: 'user', content: 'Hi.' }] }),
  b('a toolConfig without tools', MIXED, { toolConfig: { toolChoice: { auto: {} } } }),
  b('a caller cache point with a TTL Bedrock does not take', MIXED, { messages: [bUser({ text: 'Hi.' }, point('24h'))] }),
  b('a caller cache point of another type', MIXED, { toolConfig: { tools: [spec('read'), { cachePoint: { type: 'fast' } }] } }),
  b('five caller cache points', MIXED, { toolConfig: { tools: [spec('a'), point(), spec('b'), point()] }, messages: [bUser({ text: 'x' }, point(), { text: 'y' }, point(), { text: 'z' }, point())] }),
  b('caller cache points with a longer TTL after a shorter one', MIXED, { toolConfig: { tools: [spec('a'), point('5m')] }, messages: [bUser({ text: 'x' }, point('1h'))] }),
];
