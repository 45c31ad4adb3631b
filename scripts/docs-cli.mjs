// `npm run docs:cli`: rewrites the generated part of docs/cli.md (between its
// cli-reference markers) from the option table, through the built lib/
// (`npm run build:tool` first; the package script does both).
// test/docs/cli-reference.test.ts fails while the committed page differs.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withCliReference } from '../lib/cli/reference/cli-reference.js';

const page = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'cli.md');
const before = await fs.readFile(page, 'utf8');
const after = withCliReference(before);
if (after === before) {
  console.log('docs/cli.md is up to date');
} else {
  await fs.writeFile(page, after);
  console.log('docs/cli.md rewritten from the option table');
}
