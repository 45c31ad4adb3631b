/** Source maps: every byte of an emitted text traces back to its file, line and include chain. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import type { SourceMap } from '../../compiler/runtime/manifest.js';
import { copyFixture } from '../helpers/tree.js';

async function mapOf(root: string, sectionName: string) {
  const result = await buildProject({ root, cacheDir: null });
  const section = Object.values(result.manifest!.profiles).flatMap((p) => p.sections).find((s) => s.name === sectionName)!;
  const dist = path.join(root, 'dist');
  const text = await fs.readFile(path.join(dist, section.kind === 'static' ? section.file : section.template));
  const map = JSON.parse(await fs.readFile(path.join(dist, section.map), 'utf8')) as SourceMap;
  return { text, map, section };
}

describe('source maps', () => {
  it('segments are contiguous, cover the text, and trace included lines through the chain', async () => {
    const root = await copyFixture('build/ok-basic');
    const { text, map, section } = await mapOf(root, 'rules');
    expect(map.output).toBe(section.file);
    expect(map.segments[0]!.start).toBe(0);
    expect(map.segments.at(-1)!.end).toBe(text.length);
    map.segments.slice(1).forEach((s, i) => expect(s.start).toBe(map.segments[i]!.end));

    // "shared text" comes from shared.md, reached through rules.md → parts/a.md → shared.md.
    const at = text.indexOf('shared text');
    const segment = map.segments.find((s) => s.start <= at && at < s.end)!;
    expect(segment.file).toBe('prompts/sections/parts/shared.md');
    expect(segment.line).toBe(4);
    expect(segment.chain).toEqual(['prompts/sections/rules.md', 'prompts/sections/parts/a.md', 'prompts/sections/parts/shared.md']);

    // The section's own text maps to its own lines, with an empty chain.
    const own = map.segments.find((s) => s.file === 'prompts/sections/rules.md' && s.start === 0)!;
    expect(own.line).toBe(1);
    expect(own.chain).toEqual([]);
  });

  it('offsets are UTF-8 bytes, so text after multi-byte characters still lines up', async () => {
    const root = await copyFixture('build/ok-basic');
    await fs.writeFile(path.join(root, 'prompts/sections/intro.md'), 'Übersicht — ✓ done\n@../fragments/hello.md\nEnd\n');
    const { text, map } = await mapOf(root, 'intro');
    const hello = text.indexOf(Buffer.from('Hello'));
    const segment = map.segments.find((s) => s.start <= hello && hello < s.end)!;
    expect(segment.file).toBe('prompts/fragments/hello.md');
    expect(segment.start).toBe(hello);
  });

  it('a text that is one piece of its source has no map file, only the line it starts at', async () => {
    const root = await copyFixture('build/ok-basic');
    const result = await buildProject({ root, cacheDir: null });
    const env = result.manifest!.profiles.default!.sections.find((s) => s.name === 'env')!;
    expect(env.map).toBeUndefined();
    expect(env.line).toBe(6);
    const literal = result.manifest!.profiles.default!.sections.find((s) => s.name === 'literal')!;
    expect(literal.map).toBeUndefined();
    expect(literal.line).toBe(4);
  });
});
