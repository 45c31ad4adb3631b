// The check must fail here: a part field Gemini's `Part` does not define.
import type { Content } from '@google/genai';
import { expectTypeOf } from 'vitest';
import type { Undeclared } from '../undeclared.js';

type Invented = { parts: { text: string; cacheControl: 'ephemeral' }[] };
expectTypeOf<Undeclared<Invented, Content>>().toEqualTypeOf<never>(); // must-fail
