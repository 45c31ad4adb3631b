/**
 * A section's hover is Markdown: what the config wrote (a model's name) is
 * shown in code spans, so a crafted name cannot become a link or markup.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveBuildOptions } from '../../compiler/index.js';
import { readDocument } from '../../compiler/lsp/document.js';
import { hoverAt } from '../../compiler/lsp/features.js';

describe('section hover', () => {
  it("shows the config's models as code spans when the section has no per-model counts", () => {
    const root = path.resolve('/tmp/pb-hover');
    const options = { ...resolveBuildOptions({ root, cacheDir: null }), models: ['claude-sonnet-4-5', '[x](https://evil.example)'] };
    const doc = readDocument(path.join(root, 'prompts/sections/a.md'), 'Hello.\n', options)!;
    const manifest = { profiles: { p: { name: 'p', sections: [{ source: 'prompts/sections/a.md', name: 'a', kind: 'static', tokens: 5 }], boundaryIndex: 1 } } };
    const value = hoverAt(doc, 1, manifest as never, options, () => null);
    expect(value).toContain('Tokens ≈5 (`claude-sonnet-4-5`, `[x](https://evil.example)`)');
  });
});
