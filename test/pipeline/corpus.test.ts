/**
 * Real third-party prompt and agent files (../shared/corpus, with their
 * provenance). Every file must parse; every file whose body holds no include
 * candidate, no `{{` and no `<!--` must compile, as a static section, to its
 * body byte-for-byte (CRLF → LF aside); every agent-shaped file must be
 * accepted, or rejected with positioned diagnostics.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { buildProject, DEFAULT_LIMITS } from '../../compiler/index.js';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';

const CORPUS = path.resolve(REPO, '../shared/corpus');
const present = await fs.access(CORPUS).then(
  () => true,
  () => false,
);
const files = present
  ? (await fs.readdir(CORPUS, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && e.name.endsWith('.md') && e.name !== 'PROVENANCE.md')
      .map((e) => path.relative(CORPUS, path.join(e.parentPath, e.name)))
      .sort()
  : [];

// The corpus lives beside the checkout; a clone without it says so instead of passing silently.
// Skipped, and so reported by the runner, where ../shared/corpus is not beside this checkout.
describe.skipIf(!present)(present ? 'third-party corpus' : `third-party corpus (absent: ${CORPUS} not found, these tests did not run)`, () => {
  it('holds a few hundred files', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('every file parses and compiles; plain bodies compile byte-for-byte', async () => {
    let exact = 0;
    await forEachLimited(files, 8, async (rel) => {
      const text = normalise(await fs.readFile(path.join(CORPUS, rel)));
      const { data, content: body } = matter(text, {});
      const plain = !hasCandidate(body) && !body.includes('{{') && !body.includes('<!--');
      const name = sectionName(data, rel);
      const root = await tempDir('pb-corpus-');
      await writeTree(root, {
        'prompts/sections/x.md': text,
        'prompts/profiles/p.md': `---\nsections: [${JSON.stringify(name)}]\n---\n`,
      });
      const result = await buildProject({ root, cacheDir: null, write: false });
      for (const d of result.diagnostics) {
        expect(d.line, `${rel}: ${d.rule}`).toBeGreaterThanOrEqual(1);
        expect(d.column).toBeGreaterThanOrEqual(1);
      }
      if (plain && result.ok) {
        const entry = result.bundle!.manifest.profiles.p!.sections[0]!;
        expect(result.bundle!.files.get(entry.file), rel).toBe(body);
        exact++;
      }
      if (plain && !result.ok) {
        // Only a name the section rules refuse may stop a plain file.
        expect(result.diagnostics.map((d) => d.rule), rel).toEqual(['section/invalid-name']);
      }
      await fs.rm(root, { recursive: true, force: true });
    });
    expect(exact).toBeGreaterThan(200);
  });

  it('every agent-shaped file is accepted or rejected with positioned agent diagnostics', async () => {
    const agents = [];
    for (const rel of files) {
      const { data } = matter(normalise(await fs.readFile(path.join(CORPUS, rel))), {});
      if (typeof data.name === 'string' || typeof data.description === 'string') agents.push(rel);
    }
    expect(agents.length).toBeGreaterThan(100);
    let accepted = 0;
    await forEachLimited(agents, 8, async (rel) => {
      const root = await tempDir('pb-agent-');
      await fs.mkdir(path.join(root, 'agents'), { recursive: true });
      await fs.copyFile(path.join(CORPUS, rel), path.join(root, 'agents/a.md'));
      const result = await buildProject({ root, cacheDir: null, write: false });
      const skipped = result.bundle?.manifest.skippedAgents?.['agents/a.md'];
      if (result.ok && skipped) {
        // Left out as Claude Code leaves it out: one positioned line says why.
        expect(result.diagnostics.filter((d) => d.file === 'agents/a.md' && d.rule === skipped.rule), rel).toHaveLength(1);
      } else if (result.ok) {
        accepted++;
        const agent = Object.values(result.bundle!.manifest.agents)[0]!;
        expect(Array.isArray(agent.tools)).toBe(true);
      } else {
        for (const d of result.diagnostics.filter((x) => x.severity === 'error')) {
          expect(d.file, rel).toBe('agents/a.md');
          expect(d.rule).toMatch(/^(agent|frontmatter|include)\//);
          expect(d.line).toBeGreaterThanOrEqual(1);
        }
      }
      await fs.rm(root, { recursive: true, force: true });
    });
    expect(accepted).toBeGreaterThan(agents.length / 2);
  });

  it('every file, compiled as a verbatim static section, is its body byte for byte, comments and all', async () => {
    // One project holding every file as a section: one build, not four hundred.
    const root = await tempDir('pb-corpus-verbatim-');
    const bodies = new Map<string, string>();
    const tree: Record<string, string> = {};
    for (const [i, rel] of files.entries()) {
      const text = await fs.readFile(path.join(CORPUS, rel), 'utf8');
      const { content } = matter(normalise(Buffer.from(text)), {});
      const name = `s${i}`;
      bodies.set(name, content);
      tree[`prompts/sections/${name}.md`] = `---\nverbatim: true\n---\n${content}`;
    }
    tree['prompts/profiles/all.md'] = `---\nsections: [${[...bodies.keys()].join(', ')}]\ncacheWarning: false\n---\n`;
    await writeTree(root, tree);
    const result = await buildProject({ root, cacheDir: null, write: false, parallelThreshold: Number.POSITIVE_INFINITY });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    let withComments = 0;
    for (const entry of result.bundle!.manifest.profiles.all!.sections) {
      const body = bodies.get(entry.name)!;
      expect(result.bundle!.files.get(entry.file), entry.name).toBe(body);
      if (body.includes('<!--')) withComments++;
    }
    expect(bodies.size).toBe(files.length);
    expect(withComments).toBeGreaterThan(0);
    await fs.rm(root, { recursive: true, force: true });
  });

  it('a tree of all its agents builds, as Claude Code would load them', async () => {
    const root = await tempDir('pb-corpus-agents-');
    const agentFiles = [];
    for (const rel of files) {
      const text = await fs.readFile(path.join(CORPUS, rel), 'utf8');
      if (/(^|\/)agents\//.test(rel) || /^---\r?\n[\s\S]*?^name:/m.test(text)) agentFiles.push(rel);
    }
    await fs.mkdir(path.join(root, 'agents'), { recursive: true });
    for (const rel of agentFiles) {
      await fs.mkdir(path.dirname(path.join(root, 'agents', rel)), { recursive: true });
      await fs.copyFile(path.join(CORPUS, rel), path.join(root, 'agents', rel));
    }
    const result = await buildProject({ root, cacheDir: null, write: false, parallelThreshold: Number.POSITIVE_INFINITY });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.ok).toBe(true);
    const built = Object.keys(result.bundle!.manifest.agents).length;
    const byRule = new Map<string, number>();
    for (const d of result.diagnostics) byRule.set(d.rule, (byRule.get(d.rule) ?? 0) + 1);
    // docs/authoring.md reports these counts; a change in them is worth a look.
    console.log(`corpus agents: ${agentFiles.length} files, ${built} built; ${[...byRule].map(([r, n]) => `${r} ${n}`).join(', ')}`);
    expect(built).toBeGreaterThan(agentFiles.length * 0.8);
    await fs.rm(root, { recursive: true, force: true });
  });
});

function normalise(bytes: Buffer): string {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.replace(/\r\n?/g, '\n');
}

function hasCandidate(body: string): boolean {
  return [...body.matchAll(/(^|\s)@(\S+)/g)].some((m) => {
    const p = (m[2] ?? '').replace(/[.,;:!?)\]}'"]+$/, '');
    return /^(\.{1,2}\/|~\/|\/)/.test(p) || DEFAULT_LIMITS.extensions.some((e) => p.toLowerCase().endsWith(e));
  });
}

function sectionName(data: Record<string, unknown>, rel: string): string {
  const name = data.name;
  if (typeof name === 'string' || typeof name === 'number') return String(name);
  return 'x';
}

async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}
