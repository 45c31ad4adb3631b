/**
 * The request planners through the public API, over a grid of inputs (prompt
 * shapes × the caller's own breakpoints × options), each request read back
 * independently of the planner's report:
 *
 * - it holds at most 4 breakpoints, automatic caching's included;
 * - their TTLs never grow along the request (tools → system → messages → the
 *   top-level one);
 * - the report lists exactly the breakpoints the request holds;
 * - every place the planner wanted is placed or reported dropped, never lost;
 *   a budget drop only when all 4 slots are taken, and never in favour of a
 *   place ranked below it;
 * - the caller's breakpoints are all there, unchanged, and their inputs
 *   (deep-frozen) untouched; every text is sent byte for byte.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ArgumentError,
  asSystemPrompt,
  MAX_BREAKPOINTS,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY as B,
  toAnthropicRequest,
  toBedrockRequest,
  type PlannedBreakpoint,
} from '../../compiler/runtime/index.js';

type Json = Record<string, unknown>;
type Ttl = '5m' | '1h';
type Mark = Ttl | 'default' | null;

const PROMPTS: Record<string, string[]> = {
  mixed: ['Static one.', 'Static two.', B, 'cwd: /work'],
  'static-only': ['Static one.', B],
  'no boundary': ['Custom.', 'More.'],
  empty: [],
};
const MARKS: Mark[] = [null, 'default', '5m', '1h'];
const RANK = ['end of tools', 'end of static prefix', 'end of system', 'automatic', 'last user turn'];
const minutes = (ttl: string) => (ttl === '1h' ? 60 : 5);

/** Checks over thousands of cases: the message (the case as JSON) is built only when one fails. */
function must(holds: boolean, what: () => string): void {
  if (!holds) expect.fail(what());
}
function same(actual: unknown, expected: unknown, what: () => string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, what()).toEqual(expected);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

// ——— Anthropic ———

const control = (mark: Mark) => (mark === null ? {} : { cache_control: mark === 'default' ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: mark } });
const tool = (name: string, mark: Mark) => ({ name, input_schema: { type: 'object' }, ...control(mark) });
const text = (t: string, mark: Mark) => ({ type: 'text', text: t, ...control(mark) });

interface AnthropicCase {
  prompt: string;
  tools?: Json[];
  messages?: Json[];
  options: Json;
}

function* anthropicCases(): Generator<AnthropicCase> {
  const toolSets: (Json[] | undefined)[] = [undefined, []];
  // 'default' (no ttl key) and '5m' weigh the same: one of each side is enough.
  for (const a of [null, 'default', '1h'] as Mark[]) for (const b of [null, '5m', '1h'] as Mark[]) toolSets.push([tool('read', a), tool('grep', b)]);
  const messageSets: (Json[] | undefined)[] = [undefined, [{ role: 'assistant', content: 'prefill' }]];
  for (const reply of [null, '5m', '1h'] as Mark[])
    for (const first of [null, '1h'] as Mark[])
      for (const last of MARKS) {
        messageSets.push([
          { role: 'user', content: 'Hello.' },
          { role: 'assistant', content: [text('Hi.', reply)] },
          { role: 'user', content: [text('Look.', first), text('Now.', last)] },
        ]);
      }
  messageSets.push([{ role: 'user', content: 'Only.' }], [{ role: 'user', content: '' }]);
  const optionSets: Json[] = [{}, { staticTtl: '1h' }, { ttl: '1h' }, { automatic: true }, { ttl: '1h', automatic: { ttl: '1h' } }, { staticTtl: '1h', automatic: true }, { cache: false }];
  for (const prompt of Object.keys(PROMPTS))
    for (const tools of toolSets)
      for (const messages of messageSets)
        for (const options of optionSets) yield { prompt, ...(tools ? { tools } : {}), ...(messages ? { messages } : {}), options };
}

/** Every cache_control in the request, in request order, read from the request itself. */
function anthropicMarks(request: Json): { path: string; ttl: Ttl }[] {
  const out: { path: string; ttl: Ttl }[] = [];
  const take = (holder: Json, path: string) => {
    const c = holder.cache_control as { ttl?: Ttl } | null | undefined;
    if (c) out.push({ path, ttl: c.ttl ?? '5m' });
  };
  ((request.tools as Json[] | undefined) ?? []).forEach((t, i) => take(t, `tools[${i}]`));
  (request.system as Json[]).forEach((s, i) => take(s, `system[${i}]`));
  ((request.messages as Json[] | undefined) ?? []).forEach((m, i) => {
    if (Array.isArray(m.content)) (m.content as Json[]).forEach((b, j) => take(b, `messages[${i}].content[${j}]`));
  });
  take(request, 'cache_control');
  return out;
}

/** Whether the caller's own marks are refused (more than 4, or a longer TTL after a shorter one). */
function callerInvalid(marks: { ttl: Ttl }[]): boolean {
  return marks.length > MAX_BREAKPOINTS || marks.some((m, i) => i > 0 && minutes(m.ttl) > minutes(marks[i - 1]!.ttl));
}

/** The places the planner should want for this input, from the rules, not from the planner. */
function anthropicWanted(c: AnthropicCase, marked: Set<string>): string[] {
  if (c.options.cache === false) return [];
  const wanted: string[] = [];
  const tools = c.tools ?? [];
  if (tools.length > 0 && !marked.has(`tools[${tools.length - 1}]`)) wanted.push('end of tools');
  const parts = PROMPTS[c.prompt]!;
  const boundary = parts.indexOf(B);
  if (boundary > 0) wanted.push('end of static prefix');
  if (parts.length > boundary + 1) wanted.push('end of system');
  if (c.options.automatic) wanted.push('automatic');
  else {
    const messages = c.messages ?? [];
    const u = messages.map((m) => m.role).lastIndexOf('user');
    if (u >= 0) {
      const content = messages[u]!.content;
      const last = typeof content === 'string' ? 0 : (content as Json[]).length - 1;
      if (!marked.has(`messages[${u}].content[${last}]`)) wanted.push('last user turn');
    }
  }
  return wanted;
}

function checkPlan(
  wanted: string[],
  caller: { path: string; ttl: Ttl }[],
  found: { path: string; ttl: Ttl }[],
  plan: { breakpoints: PlannedBreakpoint[]; dropped: { at: string; reason: string }[] },
  label: () => string,
): void {
  must(found.length <= MAX_BREAKPOINTS, () => `${label()}: ${found.length} breakpoints`);
  for (let i = 1; i < found.length; i++) must(minutes(found[i]!.ttl) <= minutes(found[i - 1]!.ttl), () => `${label()}: TTL order at ${found[i]!.path}`);
  same(plan.breakpoints.map((b) => ({ path: b.path, ttl: b.ttl })), found, label);
  same(plan.breakpoints.filter((b) => b.at === 'caller').map((b) => ({ path: b.path, ttl: b.ttl })), caller, label);
  const placed = plan.breakpoints.filter((b) => b.at !== 'caller').map((b) => b.at);
  same([...placed, ...plan.dropped.map((d) => d.at)].sort(), [...wanted].sort(), () => `${label()}: every wanted place placed or reported`);
  for (const d of plan.dropped) must(d.reason.length > 0, label);
  const budget = plan.dropped.filter((d) => d.reason.startsWith('a request holds at most 4'));
  if (budget.length > 0) must(found.length === MAX_BREAKPOINTS, () => `${label()}: dropped for the budget with a slot free`);
  for (const d of budget) for (const p of placed) must(RANK.indexOf(p) < RANK.indexOf(d.at), () => `${label()}: ${p} placed over ${d.at}`);
}

describe('toAnthropicRequest over a grid of prompts, caller breakpoints and options', () => {
  it('never exceeds the budget, keeps TTLs in order, reports what it placed and dropped, and changes nothing of the caller’s', () => {
    let planned = 0;
    let refused = 0;
    for (const c of anthropicCases()) {
      const label = () => JSON.stringify(c);
      const input = deepFreeze(structuredClone({ system: asSystemPrompt(PROMPTS[c.prompt]!), ...(c.tools ? { tools: c.tools } : {}), ...(c.messages ? { messages: c.messages } : {}) }));
      const before = JSON.stringify(input);
      const caller = anthropicMarks({ system: [], ...input } as Json);
      let plan;
      try {
        plan = toAnthropicRequest(input as never, deepFreeze(structuredClone(c.options)) as never);
      } catch (error) {
        must(error instanceof ArgumentError, () => `${label()}: ${String(error)}`);
        must(callerInvalid(caller), () => `${label()}: refused ${(error as Error).message}`);
        refused++;
        continue;
      }
      planned++;
      must(!callerInvalid(caller), label);
      must(JSON.stringify(input) === before, label);
      const request = plan.request as unknown as Json;
      checkPlan(anthropicWanted(c, new Set(caller.map((m) => m.path))), caller, anthropicMarks(request), plan, label);
      // The caller's arrays are never handed back to be changed; texts are sent as given.
      if (input.tools) must(request.tools !== input.tools, label);
      if (input.messages) must(request.messages !== input.messages, label);
      const sent = (request.system as { text: string }[]).map((s) => s.text).join('\n\n');
      must(sent === PROMPTS[c.prompt]!.filter((p) => p !== B).join('\n\n'), label);
      const strip = (messages: Json[]) =>
        messages.map((m) => (typeof m.content === 'string' ? [m.content] : (m.content as Json[]).map((b) => b.text)));
      if (input.messages) same(strip(request.messages as Json[]), strip(input.messages as Json[]), label);
    }
    expect(planned).toBeGreaterThan(4000);
    expect(refused).toBeGreaterThan(100);
  });

  it('places by priority when the caller leaves fewer slots: end of tools, static prefix, system, last user turn', () => {
    const system = asSystemPrompt(PROMPTS.mixed!);
    const messages = [{ role: 'user' as const, content: 'Now.' }];
    const slots = (marks: number) => {
      const tools = [tool('a', marks > 0 ? 'default' : null), tool('b', null), tool('c', marks > 1 ? 'default' : null), tool('d', null)];
      tools.splice(1, 0, ...(marks > 2 ? [tool('x', 'default')] : []));
      return toAnthropicRequest({ system, tools, messages } as never).breakpoints.filter((b) => b.at !== 'caller').map((b) => b.at);
    };
    expect(slots(0)).toEqual(['end of tools', 'end of static prefix', 'end of system', 'last user turn']);
    expect(slots(1)).toEqual(['end of tools', 'end of static prefix', 'end of system']);
    expect(slots(2)).toEqual(['end of tools', 'end of static prefix']);
    expect(slots(3)).toEqual(['end of tools']);
  });

  it('a caller 1h breakpoint in messages after the 5m tail: the tail is dropped, saying why', () => {
    const plan = toAnthropicRequest(
      { system: asSystemPrompt(PROMPTS.mixed!), messages: [{ role: 'user', content: 'Q.' }, { role: 'assistant', content: [{ type: 'text', text: 'A.', cache_control: { type: 'ephemeral', ttl: '1h' } }] }] },
      { ttl: '5m', staticTtl: '1h' },
    );
    expect(plan.request.system).toEqual([
      { type: 'text', text: 'Static one.\n\nStatic two.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'cwd: /work' },
    ]);
    expect(plan.dropped).toEqual([
      { at: 'end of system', reason: "the caller's '1h' breakpoint at messages[1].content[0] comes after it, and a longer TTL must come before a shorter one" },
      { at: 'last user turn', reason: "the caller's '1h' breakpoint at messages[1].content[0] comes after it, and a longer TTL must come before a shorter one" },
    ]);
  });

  it('a string turn becomes one text block with the same text; the caller’s message object is not reused', () => {
    const message = deepFreeze({ role: 'user' as const, content: 'Ünïcödé — 😀\n\n  spaced  ' });
    const plan = toAnthropicRequest({ system: asSystemPrompt([]), messages: [message] });
    expect(plan.request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: message.content, cache_control: { type: 'ephemeral' } }] }]);
    expect(plan.request.messages[0]).not.toBe(message);
  });
});

// ——— Bedrock ———

const point = (mark: Mark) => ({ cachePoint: mark === 'default' ? { type: 'default' } : { type: 'default', ttl: mark } });

interface BedrockCase {
  prompt: string;
  toolConfig?: Json;
  messages?: Json[];
  options: Json;
}

function* bedrockCases(): Generator<BedrockCase> {
  const spec = (name: string) => ({ toolSpec: { name, inputSchema: { json: {} } } });
  const withPoint = (blocks: Json[], mark: Mark) => (mark === null ? blocks : [...blocks, point(mark)]);
  const configs: (Json | undefined)[] = [undefined, { tools: [] }];
  for (const a of MARKS) for (const b of MARKS) configs.push({ tools: [...withPoint([spec('read')], a), ...withPoint([spec('grep')], b)], toolChoice: { auto: {} } });
  const messageSets: (Json[] | undefined)[] = [undefined, [{ role: 'user', content: [] }]];
  for (const reply of [null, '5m', '1h'] as Mark[])
    for (const last of MARKS) {
      messageSets.push([
        { role: 'user', content: [{ text: 'Hello.' }] },
        { role: 'assistant', content: withPoint([{ text: 'Hi.' }], reply) },
        { role: 'user', content: withPoint([{ text: 'Now.' }], last) },
      ]);
    }
  const optionSets: Json[] = [{}, { staticTtl: '1h' }, { ttl: '1h' }, { cache: false }];
  for (const prompt of Object.keys(PROMPTS))
    for (const toolConfig of configs)
      for (const messages of messageSets) for (const options of optionSets) yield { prompt, ...(toolConfig ? { toolConfig } : {}), ...(messages ? { messages } : {}), options };
}

function bedrockPoints(request: Json): { path: string; ttl: Ttl }[] {
  const out: { path: string; ttl: Ttl }[] = [];
  const take = (block: Json, path: string) => {
    const p = block.cachePoint as { ttl?: Ttl } | undefined;
    if (p) out.push({ path, ttl: p.ttl ?? '5m' });
  };
  (((request.toolConfig as Json | undefined)?.tools as Json[] | undefined) ?? []).forEach((t, i) => take(t, `toolConfig.tools[${i}]`));
  ((request.system as Json[] | undefined) ?? []).forEach((s, i) => take(s, `system[${i}]`));
  ((request.messages as Json[] | undefined) ?? []).forEach((m, i) => (m.content as Json[]).forEach((b, j) => take(b, `messages[${i}].content[${j}]`)));
  return out;
}

function bedrockWanted(c: BedrockCase): string[] {
  if (c.options.cache === false) return [];
  const wanted: string[] = [];
  const tools = (c.toolConfig?.tools as Json[] | undefined) ?? [];
  if (tools.length > 0 && !('cachePoint' in tools[tools.length - 1]!)) wanted.push('end of tools');
  const parts = PROMPTS[c.prompt]!;
  const boundary = parts.indexOf(B);
  if (boundary > 0) wanted.push('end of static prefix');
  if (parts.length > boundary + 1) wanted.push('end of system');
  const messages = c.messages ?? [];
  const u = messages.map((m) => m.role).lastIndexOf('user');
  const content = (messages[u]?.content as Json[] | undefined) ?? [];
  if (u >= 0 && !(content.length > 0 && 'cachePoint' in content[content.length - 1]!)) wanted.push('last user turn');
  return wanted;
}

describe('toBedrockRequest over a grid of prompts, caller cache points and options', () => {
  it('never exceeds the budget, keeps TTLs in order, reports what it placed and dropped, and changes nothing of the caller’s', () => {
    let planned = 0;
    let refused = 0;
    for (const c of bedrockCases()) {
      const label = () => JSON.stringify(c);
      const input = deepFreeze(structuredClone({ system: asSystemPrompt(PROMPTS[c.prompt]!), ...(c.toolConfig ? { toolConfig: c.toolConfig } : {}), ...(c.messages ? { messages: c.messages } : {}) }));
      const before = JSON.stringify(input);
      const caller = bedrockPoints({ ...input, system: [] } as Json);
      let plan;
      try {
        plan = toBedrockRequest(input as never, deepFreeze(structuredClone(c.options)) as never);
      } catch (error) {
        must(error instanceof ArgumentError, () => `${label()}: ${String(error)}`);
        must(callerInvalid(caller), () => `${label()}: refused ${(error as Error).message}`);
        refused++;
        continue;
      }
      planned++;
      must(!callerInvalid(caller), label);
      must(JSON.stringify(input) === before, label);
      const request = plan.request as unknown as Json;
      checkPlan(bedrockWanted(c), caller, bedrockPoints(request), plan, label);
      if (input.toolConfig) same((request.toolConfig as Json).toolChoice, input.toolConfig.toolChoice, label);
      const texts = (request.system as Json[]).filter((s) => 'text' in s).map((s) => s.text);
      must(texts.join('\n\n') === PROMPTS[c.prompt]!.filter((p) => p !== B).join('\n\n'), label);
      // Cache points are added after what they close; nothing else in a message moves.
      if (input.messages) {
        const withoutPoints = (messages: Json[]) => messages.map((m) => (m.content as Json[]).filter((b) => !('cachePoint' in b)));
        same(withoutPoints(request.messages as Json[]), withoutPoints(input.messages as Json[]), label);
      }
    }
    expect(planned).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(20);
  });
});

describe('what a caller reads when a planner refuses', () => {
  const system = asSystemPrompt(PROMPTS.mixed!);
  const refusal = (call: () => unknown) => {
    try {
      call();
    } catch (error) {
      expect(error).toBeInstanceOf(ArgumentError);
      return (error as Error).message;
    }
    return expect.fail('not refused');
  };

  it('an un-awaited prompt, messages that are no array', () => {
    expect(refusal(() => toAnthropicRequest({ system: Promise.resolve(system) as never }))).toBe(
      'toAnthropicRequest: input.system must be a SystemPrompt (an array of strings); got a Promise (did you forget `await`?)',
    );
    expect(refusal(() => toBedrockRequest({ system, messages: 'hi' as never }))).toBe('toBedrockRequest: input.messages must be an array of messages; got "hi"');
  });

  it('a fifth caller breakpoint, and a longer TTL after a shorter one, named where they are', () => {
    const five = [tool('a', 'default'), tool('b', 'default'), tool('c', 'default'), tool('d', 'default'), tool('e', '5m')];
    expect(refusal(() => toAnthropicRequest({ system, tools: five } as never))).toBe(
      "toAnthropicRequest: input.tools[4].cache_control must be absent: a request holds at most 4 cache breakpoints, and this is the caller's 5th; got an object",
    );
    const disorder = [tool('a', '5m'), tool('b', '1h')];
    expect(refusal(() => toAnthropicRequest({ system, tools: disorder } as never))).toBe(
      "toAnthropicRequest: input.tools[1].cache_control.ttl must be no longer than '5m', the TTL of the caller's breakpoint at tools[0] before it (a longer TTL must come before a shorter one); got \"1h\"",
    );
  });

  it('automatic caching that would outlive the tail, or with cache: false', () => {
    expect(refusal(() => toAnthropicRequest({ system }, { automatic: { ttl: '1h' } }))).toBe(
      "toAnthropicRequest: options.automatic.ttl must be no longer than options.ttl ('5m'): automatic caching marks the last block, and a longer TTL must come before a shorter one; got \"1h\"",
    );
    expect(refusal(() => toAnthropicRequest({ system }, { cache: false, automatic: true }))).toBe(
      'toAnthropicRequest: options.automatic must be false or absent when options.cache is false; got boolean true',
    );
  });
});
