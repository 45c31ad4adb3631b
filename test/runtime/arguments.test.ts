/**
 * What a caller reads when a runtime function is called wrongly: one error
 * class, naming the function, the parameter and what it got — never an
 * internal TypeError from deep inside, and never a value sent on to a
 * provider. (Which calls are refused is in the conformance vectors' `refusals`,
 * shared with the Python runtime; this file is about the words.)
 */
import { describe, expect, it } from 'vitest';
import {
  ArgumentError,
  asSystemPrompt,
  getSystemPrompt,
  loadBundle,
  loadBundleModule,
  prependUserContext,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY as B,
  toAnthropicSystem,
  type SectionCache,
  type SystemPrompt,
} from '../../compiler/runtime/index.js';
import { FIXTURE_DIR } from './fixture.js';

const prompt = asSystemPrompt(['s', B, 'd']);

describe('ArgumentError', () => {
  it('asks whether an await was forgotten when it gets a Promise', () => {
    const pending = Promise.resolve(prompt) as unknown as SystemPrompt;
    expect(() => toAnthropicSystem(pending)).toThrow('toAnthropicSystem: prompt must be a SystemPrompt (an array of strings); got a Promise (did you forget `await`?)');
  });

  it('refuses a TTL the API does not take instead of sending it', () => {
    expect(() => toAnthropicSystem(prompt, { staticTtl: '2h' as '1h' })).toThrow("toAnthropicSystem: options.staticTtl must be one of '5m', '1h'; got \"2h\"");
  });

  it('names the missing section cache, and how to make one', async () => {
    const bundle = await loadBundle(FIXTURE_DIR);
    const call = getSystemPrompt(bundle, { context: {} } as { context: {}; cache: SectionCache });
    await expect(call).rejects.toThrow(ArgumentError);
    await expect(call).rejects.toThrow("getSystemPrompt: options.cache must be the session's section cache (createSectionCache()); got undefined");
  });

  it('names the wording bundle prependUserContext needs', () => {
    expect(() => prependUserContext([], { date: 'today' }, undefined as never)).toThrow(
      'prependUserContext: wording must be the bundle whose context profile words the message (parts.wording); got undefined',
    );
  });

  it('never prints a long value it got, only what it is', () => {
    const secret = `sk-${'x'.repeat(40)}`;
    let message = '';
    try {
      toAnthropicSystem(secret as unknown as SystemPrompt);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('got a string of 43 characters');
    expect(message).not.toContain('xxxx');
  });

  it('names what loadBundleModule wants when it gets something else', () => {
    expect(() => loadBundleModule(undefined)).toThrow("loadBundleModule: module must be the imported bundle module (await import('./dist/bundle.mjs')); got undefined");
  });

  it('is a TypeError, so existing catch blocks still catch it', () => {
    expect(() => toAnthropicSystem(prompt, { ttl: '10m' as '5m' })).toThrow(TypeError);
  });
});
