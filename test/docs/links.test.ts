/**
 * The docs are one web with the code: every link of a Markdown page leads to
 * a file of the repository and, with a `#`, to a heading there; every rule
 * the code cites (`docs/authoring.md#includes`) is a heading of our own docs;
 * and nothing cites a file outside the repository.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/tree.js';

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as `-`, a repeated heading numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const heading of withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*$/gm)) {
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
}

function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

const read = (rel: string) => readFileSync(path.join(REPO, rel), 'utf8');
const filesUnder = (dir: string, test: RegExp) =>
  readdirSync(path.join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => test.test(f))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')));

const PAGES = ['README.md', 'CHANGELOG.md', 'ARCHITECTURE.md', 'python/README.md', ...filesUnder('docs', /\.md$/)];

/** `problem` for each target that is not a file of the repository or not a heading of it. */
function brokenTargets(targets: Iterable<{ where: string; target: string }>): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  const out: string[] = [];
  for (const { where, target } of targets) {
    const [file, anchor] = target.split('#') as [string, string | undefined];
    if (!existsSync(path.join(REPO, file))) out.push(`${where}: ${target}: no such file`);
    else if (anchor !== undefined && file.endsWith('.md')) {
      if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(read(file)));
      if (!anchorsOf.get(file)!.has(anchor)) out.push(`${where}: ${target}: no such heading`);
    }
  }
  return out;
}

function pageLinks(page: string): Array<{ where: string; target: string }> {
  const links: Array<{ where: string; target: string }> = [];
  for (const m of withoutCode(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = m[1]!;
    if (/^[a-z]+:/.test(link)) continue;
    const [file, anchor] = link.split('#');
    const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
    links.push({ where: page, target: anchor === undefined ? resolved : `${resolved}#${anchor}` });
  }
  return links;
}

function codeCites(): Array<{ where: string; target: string }> {
  const cites: Array<{ where: string; target: string }> = [];
  const code = [...filesUnder('compiler', /\.ts$/), ...filesUnder('python/src', /\.py$/), ...filesUnder('test', /\.(ts|mjs)$/).filter((f) => !f.startsWith('test/fixtures/'))];
  for (const file of code) {
    // In tests, `docs/…` without an anchor is often a path inside a fixture project: only anchored cites are rules.
    const cite = file.startsWith('test/') ? /\bdocs\/[\w-]+\.md#[\w-]+/g : /\bdocs\/[\w-]+\.md(?:#[\w-]+)?/g;
    for (const m of read(file).matchAll(cite)) cites.push({ where: file, target: m[0] });
  }
  return cites;
}

describe('the docs', () => {
  it('every link of every page leads to a file of the repository and a heading of it', () => {
    const links = PAGES.flatMap(pageLinks);
    expect(links.length).toBeGreaterThan(50);
    expect(brokenTargets(links)).toEqual([]);
  });

  it('every rule the code cites is a heading of our own docs', () => {
    const cites = codeCites();
    expect(cites.length).toBeGreaterThan(30);
    expect(brokenTargets(cites)).toEqual([]);
  });

  it('nothing cites a file outside the repository', () => {
    const texts = [...PAGES, ...filesUnder('compiler', /\.ts$/), ...filesUnder('python/src', /\.py$/)];
    expect(texts.filter((f) => /\bSPEC\b|SPEC\.md|shared\/seeds/.test(read(f)))).toEqual([]);
  });

  it('a broken link or cite is found', () => {
    const missing = `docs/authoring.md${'#'}no-such-heading`; // written so that this file cites nothing
    expect(brokenTargets([{ where: 'x', target: missing }])).toEqual([`x: ${missing}: no such heading`]);
    expect(brokenTargets([{ where: 'x', target: 'docs/nothing.md' }])).toEqual(['x: docs/nothing.md: no such file']);
    expect([...headingAnchors('# A `b` c?\n## A b c\n```\n# not a heading\n```\n')]).toEqual(['a-b-c', 'a-b-c-1']);
  });
});
