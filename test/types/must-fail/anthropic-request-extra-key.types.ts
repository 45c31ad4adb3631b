// The check must fail here: a request field the Messages API does not declare (Bedrock's toolConfig) among the planned fields.
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { expectTypeOf } from 'vitest';

type Planned = { system: []; tools?: []; toolConfig?: object };
expectTypeOf<Exclude<keyof Planned, keyof MessageCreateParamsNonStreaming>>().toEqualTypeOf<never>(); // must-fail
