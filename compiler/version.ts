import { createRequire } from 'node:module';

/** The tool's version, from its package.json (one level above both `compiler/` and `lib/`). */
export const TOOL_VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
