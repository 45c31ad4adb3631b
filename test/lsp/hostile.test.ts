/**
 * The language server on a tree a pull request crafted: a section that is a
 * link out of the project, a FIFO among the sections, an include that climbs
 * out of the root. It must answer, in time, without reading outside the root.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLsp } from '../helpers/lsp-client.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const SECRET = 'SECRET-TOKEN-0451';

describe('prompt-build lsp on a hostile tree', () => {
  it('reports the links, the FIFO and the climbing include, and shows nothing of what lies outside', async () => {
    const outside = await fs.realpath(await tempDir());
    await fs.writeFile(path.join(outside, 'secret.md'), `# ${SECRET}\n\n${SECRET}\n`);
    const root = await fs.realpath(await tempDir());
    await writeTree(root, {
      'prompts/sections/intro.md': `Hello.\n\n@../../../${path.basename(outside)}/secret.md\n`,
      'prompts/profiles/default.md': '---\nsections: [intro, leak]\n---\n',
      'prompts/sections/probe.md': '@../../../\n@../../linked/\n',
    });
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'prompts/sections/leak.md'));
    await fs.symlink(outside, path.join(root, 'linked'));
    execFileSync('mkfifo', [path.join(root, 'prompts/sections/pipe.md')]);

    const session = await startLsp(root);
    const { rpc, latest: published, uri } = session;
    try {
      await session.until(() => published.has(uri('prompts/sections/pipe.md')), 'the FIFO reported');
      expect(published.get(uri('prompts/sections/leak.md'))?.map((d) => d.code)).toEqual(['source/outside-root']);
      expect(published.get(uri('prompts/sections/pipe.md'))?.map((d) => d.code)).toEqual(['source/not-a-file']);
      expect(published.get(uri('prompts/sections/intro.md'))?.map((d) => d.code)).toEqual(['include/outside-root']);

      // Asked about the link and the FIFO as an editor would: nothing, at once; the secret nowhere in any answer.
      const answers = [
        await rpc.sendRequest('textDocument/documentSymbol', { textDocument: { uri: uri('prompts/sections/leak.md') } }),
        await rpc.sendRequest('textDocument/hover', { textDocument: { uri: uri('prompts/sections/leak.md') }, position: { line: 0, character: 3 } }),
        await rpc.sendRequest('textDocument/documentSymbol', { textDocument: { uri: uri('prompts/sections/pipe.md') } }),
        await rpc.sendRequest('textDocument/hover', { textDocument: { uri: uri('prompts/sections/intro.md') }, position: { line: 2, character: 3 } }),
        await rpc.sendRequest('textDocument/definition', { textDocument: { uri: uri('prompts/sections/intro.md') }, position: { line: 2, character: 3 } }),
      ];
      expect(answers.slice(0, 3)).toEqual([[], null, []]);
      expect(answers[3]).toEqual({ contents: { kind: 'markdown', value: expect.stringContaining('resolves outside the project root') } });
      expect(answers[4]).toBeNull();
      expect(JSON.stringify([...published.values(), answers])).not.toContain(SECRET);

      // Completing a path after `@`: no folder above the root, nothing through a symlink out of it; the root's own folders still.
      const complete = (line: number, character: number) =>
        rpc.sendRequest<{ label: string }[]>('textDocument/completion', { textDocument: { uri: uri('prompts/sections/probe.md') }, position: { line, character } });
      expect((await complete(0, 10)).map((c) => c.label)).toEqual([]);
      expect((await complete(1, 14)).map((c) => c.label)).toEqual([]);
      expect((await complete(0, 7)).map((c) => c.label)).toContain('../../prompts/');
    } finally {
      session.stop();
    }
  });
});
