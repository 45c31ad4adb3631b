/**
 * The inputs of `runtime.json`: a fixture tree, and the assembly,
 * section-cache, agent, priority-chain, provider-block and tampered-bundle
 * cases both runtimes run against it. Expected values come from the
 * JavaScript runtime (runtime-vectors.test.ts), except the tampered cases,
 * whose outcome per runtime is written here (each runtime reads only its own
 * modules: a damaged `.py` is no concern of the JavaScript runtime).
 */

const section = (front: string[], body: string): string => `---\n${front.join('\n')}\n---\n${body}`;

export const RUNTIME_TREE: Record<string, string> = {
  'prompts/sections/intro.md': section(['kind: static'], '# Intro\n\nYou are a helpful agent.\n\n\n'),
  'prompts/sections/rules.md': section(['kind: static'], '# Rules\n\n- Be brief.\n- ünïcödé — 😀\n'),
  'prompts/sections/blank.md': section(['kind: static'], '   \n'),
  'prompts/sections/env.md': section(['kind: dynamic', 'inputs: [cwd, shell]', 'optional: [shell]'], '# Env\n\n- cwd: {{cwd}}\n{{#if shell}}- shell: {{shell}}\n{{/if}}\n\n'),
  'prompts/sections/mcp.md': section(
    ['kind: dynamic', 'cache: uncached', 'reason: servers come and go between turns', 'inputs: [servers]', 'optional: [servers]'],
    '{{#each servers}}## {{name}}\n{{instructions}}\n{{/each}}',
  ),
  'prompts/sections/blank-dynamic.md': section(['kind: dynamic', 'inputs: [gap]', 'optional: [gap]'], '{{gap}}\n'),
  'prompts/sections/count.md': section(['kind: dynamic', 'inputs: [n]', 'optional: [n]'], '{{#if n}}turns: {{n}}{{/if}}'),
  'prompts/profiles/default.md': section(['description: the default', 'sections: [intro, rules, blank, env, mcp, blank-dynamic, count]'], ''),
  'prompts/profiles/simple.md': section(['description: simple mode', 'cacheWarning: false', 'sections: [intro, env]'], ''),
  'prompts/profiles/proactive.md': section(['description: proactive mode', 'cacheWarning: false', 'sections: [rules, env, count]'], ''),
  'prompts/profiles/static-only.md': section(['description: no dynamic part', 'cacheWarning: false', 'sections: [intro, rules]'], ''),
  'prompts/profiles/dynamic-only.md': section(['description: no static part', 'cacheWarning: false', 'sections: [env, count]'], ''),
  'prompts/profiles/empty.md': section(['description: sections that render to nothing', 'cacheWarning: false', 'sections: [blank, blank-dynamic]'], ''),
  'agents/explore.md': section(['name: explore', 'description: reads code', 'tools: Read, Grep', 'color: blue'], 'You explore code.\n\nReport what you find.\n\n'),
};

const CTX = { cwd: '/work', shell: 'zsh', servers: [{ name: 'git', instructions: 'Use git.' }], n: 3 };

export interface AssemblySeed {
  name: string;
  profile?: string;
  mode?: 'default' | 'simple' | 'proactive';
  context: Record<string, unknown>;
}

export const ASSEMBLY_SEEDS: AssemblySeed[] = [
  { name: 'default profile: statics, boundary, dynamic parts, blanks dropped, trailing newlines trimmed', context: CTX },
  { name: 'optional inputs missing', context: { cwd: '/w' } },
  { name: 'a whitespace-only dynamic result is left out', context: { cwd: '/w', gap: ' \u00a0\t' } },
  { name: 'simple mode wins over the profile', profile: 'default', mode: 'simple', context: CTX },
  { name: 'proactive mode', mode: 'proactive', context: CTX },
  { name: 'a static-only profile ends in its boundary', profile: 'static-only', context: {} },
  { name: 'a required input missing', context: { shell: 'sh' } },
  { name: 'an unknown profile', profile: 'nope', context: CTX },
];

/** One session's cache over several turns: cached sections keep their first value, uncached ones follow the context, clear starts over. */
export const CACHE_SEEDS: { name: string; steps: ({ context: Record<string, unknown> } | { clear: true })[] }[] = [
  {
    name: 'cached sections keep their first value; the uncached one is recomputed; clear recomputes all',
    steps: [
      { context: CTX },
      { context: { ...CTX, cwd: '/elsewhere', n: 4, servers: [] } },
      { clear: true },
      { context: { ...CTX, cwd: '/elsewhere', n: 4, servers: [] } },
    ],
  },
];

/** The section cache through its API: each step says what each compute returns; `expect` what resolves and which computes ran. */
export interface CacheApiSeed {
  name: string;
  sections: { name: string; cache: 'cached' | 'uncached'; cacheBreak?: boolean; reason?: string }[];
  steps: ({ values: Record<string, string | null> } | { clear: true })[];
}

export const CACHE_API_SEEDS: CacheApiSeed[] = [
  {
    name: 'cached, cacheBreak, uncached, null is a value, clear',
    sections: [
      { name: 'a', cache: 'cached' },
      { name: 'b', cache: 'cached', cacheBreak: true },
      { name: 'c', cache: 'uncached', reason: 'changes every turn' },
      { name: 'd', cache: 'cached' },
    ],
    steps: [
      { values: { a: 'a1', b: 'b1', c: 'c1', d: null } },
      { values: { a: 'a2', b: 'b2', c: 'c2', d: 'd2' } },
      { clear: true },
      { values: { a: 'a3', b: 'b3', c: 'c3', d: 'd3' } },
    ],
  },
];

export const AGENT_SEEDS: { name: string; agent: string; environment?: string | string[] }[] = [
  { name: 'an agent prompt is its static prefix', agent: 'explore' },
  { name: 'the environment after the boundary, blanks dropped', agent: 'explore', environment: ['cwd: /w', '  ', 'platform: linux'] },
  { name: 'an unknown agent', agent: 'nope' },
];

type Prompt = string | string[] | null;

export interface ChainSeed {
  name: string;
  input: {
    defaultSystemPrompt: Prompt;
    overrideSystemPrompt?: Prompt;
    coordinatorSystemPrompt?: Prompt;
    agentSystemPrompt?: Prompt;
    customSystemPrompt?: Prompt;
    appendSystemPrompt?: Prompt;
    proactive?: boolean;
  };
  /** The default prompt carries this static prefix hash (as from a bundle), so the OpenAI key shows whether it carried over. */
  defaultStaticPrefixHash?: string;
}

const B = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';
const DEFAULT = ['static one', 'static two', B, 'dynamic'];
const HASH = 'ab'.repeat(32);

export const CHAIN_SEEDS: ChainSeed[] = [
  { name: 'default, with append', input: { defaultSystemPrompt: DEFAULT, appendSystemPrompt: 'appended' }, defaultStaticPrefixHash: HASH },
  { name: 'override replaces all, append is not added', input: { defaultSystemPrompt: DEFAULT, overrideSystemPrompt: 'override', appendSystemPrompt: 'x' }, defaultStaticPrefixHash: HASH },
  { name: 'blank override counts as absent', input: { defaultSystemPrompt: DEFAULT, overrideSystemPrompt: ['  ', ''] } },
  { name: 'coordinator, plus the agent', input: { defaultSystemPrompt: DEFAULT, coordinatorSystemPrompt: 'coordinate', agentSystemPrompt: ['agent', B, 'env'], appendSystemPrompt: 'a' } },
  { name: 'agent replaces the default', input: { defaultSystemPrompt: DEFAULT, agentSystemPrompt: 'agent', customSystemPrompt: 'custom' } },
  { name: 'proactive: agent under the heading, its boundary dropped', input: { defaultSystemPrompt: DEFAULT, agentSystemPrompt: ['agent', B, 'env'], proactive: true }, defaultStaticPrefixHash: HASH },
  { name: 'custom replaces the default', input: { defaultSystemPrompt: DEFAULT, customSystemPrompt: ['custom', '', 'more'], appendSystemPrompt: [' ', 'app'] } },
  { name: 'nothing but the default', input: { defaultSystemPrompt: null } },
];

export interface ProviderSeed {
  name: string;
  prompt: string[];
  staticPrefixHash?: string;
  adapter: 'anthropic' | 'bedrock' | 'openai' | 'gemini';
  options?: Record<string, unknown>;
}

const TAIL_ONLY = ['only', 'tail'];
const p = (name: string, adapter: ProviderSeed['adapter'], prompt: string[], options?: Record<string, unknown>, staticPrefixHash?: string): ProviderSeed => ({
  name,
  adapter,
  prompt,
  ...(options ? { options } : {}),
  ...(staticPrefixHash ? { staticPrefixHash } : {}),
});

export const PROVIDER_SEEDS: ProviderSeed[] = [
  p('anthropic: two breakpoints', 'anthropic', DEFAULT),
  p('anthropic: ttl', 'anthropic', DEFAULT, { ttl: '1h' }),
  p('anthropic: longer static ttl', 'anthropic', DEFAULT, { ttl: '5m', staticTtl: '1h' }),
  p('anthropic: static ttl shorter than ttl is refused', 'anthropic', DEFAULT, { ttl: '1h', staticTtl: '5m' }),
  p('anthropic: no cache', 'anthropic', DEFAULT, { cache: false }),
  p('anthropic: global scope opt-in', 'anthropic', DEFAULT, { globalScope: true }),
  p('anthropic: no boundary is all tail', 'anthropic', TAIL_ONLY),
  p('anthropic: a marker left in the tail is never sent', 'anthropic', ['s', B, 'd', B, 'e']),
  p('anthropic: an empty tail', 'anthropic', ['s', B]),
  p('bedrock: cache points', 'bedrock', DEFAULT),
  p('bedrock: ttl', 'bedrock', DEFAULT, { ttl: '1h' }),
  p('bedrock: no cache', 'bedrock', TAIL_ONLY, { cache: false }),
  p('openai: key from the static prefix hash', 'openai', DEFAULT, {}, HASH),
  p('openai: no hash, no key', 'openai', DEFAULT),
  p('openai: a given key', 'openai', DEFAULT, { promptCacheKey: 'tenant-7' }, HASH),
  p('openai: a key too long', 'openai', DEFAULT, { promptCacheKey: 'k'.repeat(65) }),
  p('openai gpt-5.6: a developer message, a breakpoint after the static prefix and at the end', 'openai', DEFAULT, { model: 'gpt-5.6' }, HASH),
  p('openai gpt-5.6: a dated mini id, explicit mode', 'openai', DEFAULT, { model: 'gpt-5.6-mini-2026-07-01', cacheMode: 'explicit' }, HASH),
  p('openai gpt-6: later families too', 'openai', DEFAULT, { model: 'gpt-6' }),
  p('openai gpt-5.6: no boundary, one block', 'openai', TAIL_ONLY, { model: 'gpt-5.6' }),
  p('openai gpt-5.6: retention is refused (prompt_cache_options.ttl replaces it)', 'openai', DEFAULT, { model: 'gpt-5.6', promptCacheRetention: '24h' }),
  p('openai gpt-5.5: instructions, retention 24h', 'openai', DEFAULT, { model: 'gpt-5.5', promptCacheRetention: '24h' }, HASH),
  p('openai gpt-5.5: in_memory retention is refused', 'openai', DEFAULT, { model: 'gpt-5.5', promptCacheRetention: 'in_memory' }),
  p('openai gpt-4.1: in_memory retention', 'openai', DEFAULT, { model: 'gpt-4.1', promptCacheRetention: 'in_memory' }),
  p('openai o3: no explicit breakpoints, cacheMode refused', 'openai', DEFAULT, { model: 'o3', cacheMode: 'explicit' }),
  p('gemini: one part, static first', 'gemini', DEFAULT),
  p('gemini: empty prompt', 'gemini', []),
];

/** What a runtime does with a damaged bundle: refuses it with a BundleError naming the file, or loads it. */
export type TamperOutcome = { error: 'BundleError'; names: string } | { ok: true };

export interface TamperSeed {
  name: string;
  /** Which artifact: a section's static text, Python module or JS thunk; an agent's text; or the manifest itself. */
  target: { kind: 'static' | 'python' | 'js'; section: string } | { kind: 'agent'; agent: string } | { kind: 'manifest' };
  damage: 'append-byte' | 'remove' | 'truncate' | 'schema-version' | 'path-outside';
  js: TamperOutcome;
  python: TamperOutcome;
}

const refused = (names: string): TamperOutcome => ({ error: 'BundleError', names });

export const TAMPER_SEEDS: TamperSeed[] = [
  { name: 'a static text edited', target: { kind: 'static', section: 'intro' }, damage: 'append-byte', js: refused('static/intro.'), python: refused('static/intro.') },
  { name: 'half-copied: a static text missing', target: { kind: 'static', section: 'rules' }, damage: 'remove', js: refused('static/rules.'), python: refused('static/rules.') },
  { name: 'an agent prompt missing', target: { kind: 'agent', agent: 'explore' }, damage: 'remove', js: refused('agents/explore.'), python: refused('agents/explore.') },
  { name: 'a Python module edited', target: { kind: 'python', section: 'env' }, damage: 'append-byte', js: { ok: true }, python: refused('dynamic/env.') },
  { name: 'half-copied: a Python module missing', target: { kind: 'python', section: 'mcp' }, damage: 'remove', js: { ok: true }, python: refused('dynamic/mcp.') },
  { name: 'a JavaScript thunk missing', target: { kind: 'js', section: 'env' }, damage: 'remove', js: refused('dynamic/env.'), python: { ok: true } },
  { name: 'the manifest truncated', target: { kind: 'manifest' }, damage: 'truncate', js: refused('manifest.json'), python: refused('manifest.json') },
  { name: 'another schema version', target: { kind: 'manifest' }, damage: 'schema-version', js: refused('schemaVersion'), python: refused('schemaVersion') },
  { name: 'an artifact path outside the bundle', target: { kind: 'static', section: 'intro' }, damage: 'path-outside', js: refused('../outside.md'), python: refused('../outside.md') },
];

/**
 * Every shape a prompt reaches a provider in, end to end: assembled from the
 * bundle (or through the priority chain over a bundle's profile), with and
 * without the system context appended, then through all four adapters with a
 * longer static TTL. What must hold in every case: the static prefix is a block
 * of its own with `staticTtl`, and nothing appended after the build is in it.
 */
export type ShapeSource =
  | { profile: string; context?: Record<string, unknown> }
  | { agent: string; environment?: string[] }
  | { chain: { custom?: string; override?: string; append?: string; agent?: string; proactive?: boolean }; profile: string; context?: Record<string, unknown> };

export interface ShapeSeed {
  name: string;
  source: ShapeSource;
  systemContext?: Record<string, string>;
}

/** The options every adapter of a shape case is called with (Anthropic and Bedrock take the TTLs; the others none). */
export const SHAPE_TTLS = { ttl: '5m', staticTtl: '1h' } as const;

const BASE_SHAPES: ShapeSeed[] = [
  { name: 'static-only profile', source: { profile: 'static-only' } },
  { name: 'dynamic-only profile', source: { profile: 'dynamic-only', context: { cwd: '/w', n: 2 } } },
  { name: 'mixed profile', source: { profile: 'default', context: CTX } },
  { name: 'empty profile', source: { profile: 'empty' } },
  { name: 'agent without environment', source: { agent: 'explore' } },
  { name: 'agent with environment', source: { agent: 'explore', environment: ['cwd: /w', 'platform: linux'] } },
  { name: 'custom prompt over a static-only default', source: { chain: { custom: 'Custom text.' }, profile: 'static-only' } },
  { name: 'override over a mixed default', source: { chain: { override: 'Override text.', append: 'never added' }, profile: 'default', context: CTX } },
  { name: 'append over a static-only default', source: { chain: { append: 'Appended text.' }, profile: 'static-only' } },
  { name: 'append over a mixed default', source: { chain: { append: 'Appended text.' }, profile: 'default', context: CTX } },
  { name: 'custom prompt with append', source: { chain: { custom: 'Custom text.', append: 'Appended text.' }, profile: 'default', context: CTX } },
  { name: 'agent in proactive mode over a static-only default', source: { chain: { agent: 'explore', proactive: true }, profile: 'static-only' } },
  { name: 'agent replacing a mixed default, with append', source: { chain: { agent: 'explore', append: 'Appended text.' }, profile: 'default', context: CTX } },
];

const SYSTEM_CONTEXT = { gitStatus: 'Current branch: main' };

export const SHAPE_SEEDS: ShapeSeed[] = BASE_SHAPES.flatMap((seed) => [seed, { ...seed, name: `${seed.name}, system context appended`, systemContext: SYSTEM_CONTEXT }]);

/**
 * Calls both runtimes refuse, each with an ArgumentError naming the parameter.
 * Arguments are JSON, with stand-ins for what JSON cannot say: `{"$bundle":
 * true}` the loaded bundle, `{"$prompt": parts}` a SystemPrompt, `{"$cache":
 * true}` a section cache, `{"$function": true}` a compute, `{"$promise": x}` an
 * un-awaited x (a Promise; in Python a coroutine). The last argument of the
 * functions that take options is an object of them (Python: keyword arguments).
 */
export interface RefusalSeed {
  name: string;
  call: string;
  args: unknown[];
}

const PROMPT = { $prompt: ['static', B, 'dynamic'] };
const BUNDLE = { $bundle: true };
const CACHE = { $cache: true };
const r = (name: string, call: string, ...args: unknown[]): RefusalSeed => ({ name, call, args });

export const REFUSAL_SEEDS: RefusalSeed[] = [
  r('an un-awaited prompt', 'toAnthropicSystem', { $promise: PROMPT }, {}),
  r('a TTL the providers do not take', 'toAnthropicSystem', PROMPT, { staticTtl: '2h' }),
  r('a static TTL shorter than the tail’s', 'toAnthropicSystem', PROMPT, { ttl: '1h', staticTtl: '5m' }),
  r('a string for a prompt', 'toAnthropicSystem', 'You are helpful.', {}),
  r('a part that is no string', 'toAnthropicSystem', ['a', 3], {}),
  r('cache that is no boolean', 'toAnthropicSystem', PROMPT, { cache: 'yes' }),
  r('globalScope that is no boolean', 'toAnthropicSystem', PROMPT, { globalScope: 1 }),
  r('a Bedrock TTL it does not take', 'toBedrockSystem', PROMPT, { ttl: '10m' }),
  r('an un-awaited prompt to Bedrock', 'toBedrockSystem', { $promise: PROMPT }, {}),
  r('a cache key too long', 'toOpenAIRequest', PROMPT, { promptCacheKey: 'k'.repeat(65) }),
  r('an empty cache key', 'toOpenAIRequest', PROMPT, { promptCacheKey: '' }),
  r('a cache key that is no string', 'toOpenAIRequest', PROMPT, { promptCacheKey: 7 }),
  r('no prompt for Gemini', 'toGeminiSystemInstruction', null),
  r('no section cache', 'getSystemPrompt', BUNDLE, { context: {} }),
  r('no context', 'getSystemPrompt', BUNDLE, { cache: CACHE }),
  r('a context that is a list', 'getSystemPrompt', BUNDLE, { context: ['cwd'], cache: CACHE }),
  r('no bundle', 'getSystemPrompt', null, { context: {}, cache: CACHE }),
  r('an un-awaited bundle', 'getSystemPrompt', { $promise: BUNDLE }, { context: {}, cache: CACHE }),
  r('a mode that does not exist', 'getSystemPrompt', BUNDLE, { context: {}, cache: CACHE, mode: 'fast' }),
  r('a profile name that is no string', 'getSystemPrompt', BUNDLE, { context: {}, cache: CACHE, profile: 3 }),
  r('an agent name that is no string', 'getAgentSystemPrompt', BUNDLE, 5, {}),
  r('an environment that is a number', 'getAgentSystemPrompt', BUNDLE, 'explore', { environment: 5 }),
  r('an append that is a number', 'buildEffectiveSystemPrompt', { defaultSystemPrompt: 'x', appendSystemPrompt: 5 }),
  r('an un-awaited default prompt', 'buildEffectiveSystemPrompt', { defaultSystemPrompt: { $promise: PROMPT } }),
  r('proactive that is no boolean', 'buildEffectiveSystemPrompt', { defaultSystemPrompt: 'x', proactive: 'yes' }),
  r('system context on an un-awaited prompt', 'appendSystemContext', { $promise: PROMPT }, { gitStatus: 'clean' }),
  r('a system context value that is no string', 'appendSystemContext', PROMPT, { gitStatus: 5 }),
  r('user context without its wording bundle', 'prependUserContext', [], { date: 'today' }),
  r('user context with messages that are no list', 'prependUserContext', 'hi', {}, BUNDLE),
  r('a prompt made of a part that is no string', 'asSystemPrompt', ['a', null]),
  r('an uncached section without a reason', 'DANGEROUS_uncachedSystemPromptSection', 'mcp', { $function: true }, ''),
  r('a section whose compute is no function', 'systemPromptSection', 'env', 'text'),
  r('sections resolved without a cache', 'resolveSystemPromptSections', [], null),
  r('rendering a string', 'renderSystemPrompt', 'text'),
  r('a context text that does not exist', 'renderContextText', BUNDLE, 'nope', {}),
  r('a bundle path that is a number', 'loadBundle', 5),
];
