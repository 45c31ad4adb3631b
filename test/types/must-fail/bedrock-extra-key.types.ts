// The check must fail here: a cache point with a field Converse does not define.
import type { SystemContentBlock } from '@aws-sdk/client-bedrock-runtime';
import { expectTypeOf } from 'vitest';
import type { Undeclared } from '../undeclared.js';

type Invented = { text: string } | { cachePoint: { type: 'default'; scope: 'global' } };
expectTypeOf<Undeclared<Invented, SystemContentBlock>>().toEqualTypeOf<never>(); // must-fail
