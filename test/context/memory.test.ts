import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMemory, loadMemoryPrompt, MAX_INDEX_BYTES } from '../../compiler/context/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

let root: string;

beforeEach(async () => {
  root = await tempDir('pb-memory-');
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** `count` index lines of exactly `width` bytes (newline excluded), numbered so a cut can be located. */
function indexLines(count: number, width: number, filler = 'x'): string[] {
  return Array.from({ length: count }, (_, i) => {
    const head = `- [Memory ${String(i + 1).padStart(3, '0')}](m${i + 1}.md): `;
    const room = width - Buffer.byteLength(head);
    const fill = filler.repeat(Math.floor(room / Buffer.byteLength(filler)));
    return head + fill + 'x'.repeat(room - Buffer.byteLength(fill));
  });
}

describe('loadMemoryPrompt', () => {
  it('creates a missing directory and explains the memory types to an empty memory', async () => {
    const dir = path.join(root, 'projects/p/memory');
    const prompt = await loadMemoryPrompt({ memoryDir: dir });
    expect((await fs.stat(dir)).isDirectory()).toBe(true);
    expect(prompt).toContain(`persistent memory directory at \`${dir}\``);
    for (const type of ['user', 'feedback', 'project', 'reference']) expect(prompt).toMatch(new RegExp(`^- ${type}: `, 'm'));
    expect(prompt).toContain('## MEMORY.md\n\n(empty: no memories saved yet)');
    expect(prompt).not.toContain('WARNING');
  });

  it('loads a small index whole', async () => {
    await writeTree(root, { 'MEMORY.md': '- [Tabs](tabs.md): the user wants tabs\n' });
    const prompt = await loadMemoryPrompt({ memoryDir: root });
    expect(prompt).toContain('## MEMORY.md\n\n- [Tabs](tabs.md): the user wants tabs');
    expect(prompt).not.toContain('WARNING');
  });

  it('cuts a 500-line, 60 KB index at 200 lines with a warning naming both limits', async () => {
    const lines = indexLines(500, 119); // 120 bytes per line with its newline: 60,000 bytes
    await writeTree(root, { 'MEMORY.md': `${lines.join('\n')}\n` });
    const prompt = (await loadMemoryPrompt({ memoryDir: root })) ?? '';
    expect(prompt).toContain(`${lines[199]}\n`);
    expect(prompt).not.toContain('[Memory 201]');
    expect(prompt).toContain(
      '> WARNING: MEMORY.md is 500 lines (limit: 200 lines) and 60,000 bytes (limit: 25,000 bytes), so only its beginning was loaded.',
    );
  });

  it('cuts an index over 25,000 bytes at a line boundary, never inside a multi-byte character', async () => {
    const lines = indexLines(150, 299, 'é'); // 45,000 bytes in 150 lines: under the line limit, over the byte limit
    await writeTree(root, { 'MEMORY.md': `${lines.join('\n')}\n` });
    const snapshot = await loadMemory({ memoryDir: root });
    const content = snapshot?.index.content ?? '';
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(MAX_INDEX_BYTES);
    expect(content.split('\n')).toEqual(lines.slice(0, Math.floor(MAX_INDEX_BYTES / 300)));
    expect(snapshot?.index.truncatedFrom).toEqual({ lines: 150, bytes: 45_000 });
    const prompt = await loadMemoryPrompt({ memoryDir: root });
    expect(prompt).toContain('> WARNING: MEMORY.md is 45,000 bytes (limit: 25,000 bytes), so only its beginning was loaded.');
  });

  it('cuts a single over-long line between characters when there is no line boundary to cut at', async () => {
    await writeTree(root, { 'MEMORY.md': `x${'é'.repeat(15_000)}` }); // byte 25,000 falls inside an é
    const content = (await loadMemory({ memoryDir: root }))?.index.content;
    expect(content).toBe(`x${'é'.repeat(12_499)}`);
  });

  it('reports malformed memory files in the section without failing', async () => {
    await writeTree(root, {
      'MEMORY.md': '- [Good](good.md): fine\n',
      'good.md': '---\nname: Good\ndescription: a fine memory\ntype: feedback\n---\nbody\n',
      'bare.md': 'no frontmatter here\n',
      'bad-yaml.md': '---\nname: [unclosed\n---\nbody\n',
      'odd-type.md': '---\nname: Odd\ndescription: odd\ntype: opinion\n---\n',
      'topics/no-description.md': '---\nname: Nested\ntype: user\n---\n',
    });
    const snapshot = await loadMemory({ memoryDir: root });
    expect(snapshot?.problems.map((p) => p.file)).toEqual(['bad-yaml.md', 'bare.md', 'odd-type.md', 'topics/no-description.md']);
    const prompt = (await loadMemoryPrompt({ memoryDir: root })) ?? '';
    expect(prompt).toContain('- [Good](good.md): fine');
    const fixList = prompt.slice(prompt.indexOf('## Memory files to fix'));
    expect(fixList).toContain('- `bare.md`: has no frontmatter (name, description, type)');
    expect(fixList).toMatch(/- `bad-yaml\.md`: frontmatter is not valid YAML: /);
    expect(fixList).toContain('- `odd-type.md`: frontmatter `type` is "opinion"; expected one of user, feedback, project, reference');
    expect(fixList).toContain('- `topics/no-description.md`: frontmatter lacks `description`');
    expect(fixList).not.toContain('good.md');
  });

  it('gives null when the directory cannot be created', async () => {
    await writeTree(root, { 'a-file': 'in the way' });
    expect(await loadMemoryPrompt({ memoryDir: path.join(root, 'a-file/memory') })).toBeNull();
  });
});
