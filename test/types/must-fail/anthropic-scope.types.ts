// The check must fail here: the opt-in global scope is no field of the public API's cache_control.
import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { expectTypeOf } from 'vitest';
import type { AnthropicGlobalTextBlock } from '../../../compiler/runtime/index.js';
import type { Undeclared } from '../undeclared.js';

// Assignable all the same: structural typing alone would not catch it.
export const accepted: TextBlockParam = {} as AnthropicGlobalTextBlock;
expectTypeOf<Undeclared<AnthropicGlobalTextBlock, TextBlockParam>>().toEqualTypeOf<never>(); // must-fail
