/**
 * What a config's errors cost, apart from the other config tests so the
 * break it guards (a scan of the whole text per problem) can be caught in
 * seconds: 3,000 bad entries are placed in well under a second when each
 * lookup is a binary search, and take about a minute when each scans the
 * text again. (20,000 entries: hostile-config.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../compiler/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

describe('config error positions', () => {
  it('3,000 bad rules entries: each at its own line, in linear time', async () => {
    const root = await tempDir('pb-config-cost-');
    const entries = Array.from({ length: 3000 }, (_, i) => `  "rule/bad-${i}": "off"`);
    await writeTree(root, { 'prompt-build.config.json': `{\n "rules": {\n${entries.join(',\n')}\n }\n}\n` });
    const started = performance.now();
    const loaded = await loadConfig(root);
    const took = performance.now() - started;
    expect(loaded.diagnostics.map((d) => d.line)).toEqual(Array.from({ length: 3000 }, (_, i) => i + 3));
    expect(took).toBeLessThan(8_000);
  }, 120_000);
});
