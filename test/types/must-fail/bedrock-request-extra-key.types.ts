// The check must fail here: a cache point with a key Converse's CachePointBlock does not declare, in a tool list or a message.
import type { ContentBlock, Tool } from '@aws-sdk/client-bedrock-runtime';
import { expectTypeOf } from 'vitest';
import type { Undeclared } from '../undeclared.js';

type ScopedPoint = { cachePoint: { type: 'default'; ttl?: '5m' | '1h'; scope: 'global' } };
expectTypeOf<Undeclared<ScopedPoint, Tool>>().toEqualTypeOf<never>(); // must-fail
expectTypeOf<Undeclared<ScopedPoint, ContentBlock>>().toEqualTypeOf<never>(); // must-fail
