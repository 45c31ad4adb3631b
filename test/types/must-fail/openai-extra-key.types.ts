// The check must fail here: a request field the Responses API does not define.
import { expectTypeOf } from 'vitest';
import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import type { Undeclared } from '../undeclared.js';

type Invented = { instructions: string; prompt_cache_key?: string; cache_scope: 'global' };
expectTypeOf<Undeclared<Invented, ResponseCreateParamsNonStreaming>>().toEqualTypeOf<never>(); // must-fail
