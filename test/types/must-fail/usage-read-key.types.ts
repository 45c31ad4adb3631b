// The check must fail here: a usage field the Anthropic SDK does not declare (Bedrock's spelling on an Anthropic response).
import { expectTypeOf } from 'vitest';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { Undeclared } from '../undeclared.js';

type Invented = { usage: { input_tokens: number; cacheReadInputTokens: number } };
expectTypeOf<Undeclared<Invented, Message>>().toEqualTypeOf<never>(); // must-fail
