/**
 * docs/cli.md's reference part is generated from the option table
 * (compiler/cli/reference/cli-reference.ts): this fails while the committed
 * page differs from what the table gives now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_REFERENCE_END, CLI_REFERENCE_START, cliReference, withCliReference } from '../../compiler/cli/reference/cli-reference.js';
import { COMMANDS, COMMON_OPTIONS } from '../../compiler/cli/options.js';

const PAGE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'cli.md');

describe('docs/cli.md', () => {
  it('holds the reference the option table gives now', () => {
    const page = fs.readFileSync(PAGE, 'utf8');
    const stale = 'docs/cli.md is stale: run `npm run docs:cli` (or `npm run build:tool && node scripts/docs-cli.mjs`) and commit the page';
    expect(page, stale).toBe(withCliReference(page));
  });

  it('names every command and every flag of the table', () => {
    const reference = cliReference();
    for (const [name, spec] of Object.entries(COMMANDS)) {
      expect(reference).toContain(`### ${name}\n`);
      for (const flag of Object.keys(spec.options)) expect(reference).toContain(`\`--${flag}\``);
    }
    for (const flag of Object.keys(COMMON_OPTIONS)) expect(reference).toContain(`\`--${flag}\``);
  });

  it('keeps the text around the markers and refuses a page without them', () => {
    const page = `# CLI\n\nprose\n\n${CLI_REFERENCE_START}\nold\n${CLI_REFERENCE_END}\n\nmore prose\n`;
    const rewritten = withCliReference(page);
    expect(rewritten.startsWith('# CLI\n\nprose\n\n')).toBe(true);
    expect(rewritten.endsWith(`${CLI_REFERENCE_END}\n\nmore prose\n`)).toBe(true);
    expect(rewritten).not.toContain('\nold\n');
    expect(withCliReference(rewritten)).toBe(rewritten);
    expect(() => withCliReference('# CLI\n')).toThrow(/markers/);
  });
});
