/** The pure parts of watch: which events count, and the line printed after a rebuild. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BundleDiff, ProfileChange, SectionChange } from '../../compiler/bundle/bundle-diff.js';
import { ignoredPaths, toFileChange } from '../../compiler/watch/events.js';
import { formatRebuildLine } from '../../compiler/watch/rebuild-line.js';

const EXTENSIONS = ['.md', '.txt'];

describe('toFileChange', () => {
  it('keeps file events of files an include may name', () => {
    expect(toFileChange('change', '/p/prompts/a.md', EXTENSIONS)).toEqual({ path: '/p/prompts/a.md', kind: 'change' });
    expect(toFileChange('unlink', '/p/docs/NOTES.TXT', EXTENSIONS)).toEqual({ path: '/p/docs/NOTES.TXT', kind: 'unlink' });
    expect(toFileChange('add', 'rel/a.md', EXTENSIONS)).toEqual({ path: path.resolve('rel/a.md'), kind: 'add' });
  });

  it('drops directory events and files no build reads', () => {
    expect(toFileChange('addDir', '/p/prompts/new', EXTENSIONS)).toBeNull();
    expect(toFileChange('unlinkDir', '/p/prompts/x.md', EXTENSIONS)).toBeNull();
    expect(toFileChange('change', '/p/prompts/.a.md.swp', EXTENSIONS)).toBeNull();
    expect(toFileChange('change', '/p/prompts/a.md~', EXTENSIONS)).toBeNull();
    expect(toFileChange('add', '/p/image.png', EXTENSIONS)).toBeNull();
  });
});

describe('ignoredPaths', () => {
  const ignored = ignoredPaths('/p', ['/p/dist', '/cache']);
  it('skips what a build writes, dependencies and VCS data', () => {
    for (const file of ['/p/dist', '/p/dist/manifest.json', '/cache/x', '/p/node_modules/a/b.md', '/p/.git/HEAD', '/p/sub/node_modules']) {
      expect(ignored(file), file).toBe(true);
    }
  });
  it('watches the rest of the root', () => {
    for (const file of ['/p', '/p/prompts', '/p/prompts/a.md', '/p/distant/a.md', '/p/docs/git.md']) expect(ignored(file), file).toBe(false);
  });
});

describe('formatRebuildLine', () => {
  const profile = (name: string, over: Partial<ProfileChange> = {}): ProfileChange => ({
    name,
    status: 'unchanged',
    staticPrefixHash: { old: 'a', new: 'a' },
    cacheBust: false,
    staticTokens: { old: 1, new: 1, delta: 0 },
    boundaryIndex: { old: 1, new: 1 },
    sectionsAdded: [],
    sectionsRemoved: [],
    ...over,
  });
  const section = (name: string, over: Partial<SectionChange> = {}): SectionChange => ({
    name,
    status: 'changed',
    kind: { old: 'static', new: 'static' },
    moved: false,
    cache: { old: null, new: null },
    bytes: { old: 1, new: 2, delta: 1 },
    tokens: { old: 1, new: 1, delta: 0 },
    ...over,
  });
  const diff = (over: Partial<BundleDiff>): BundleDiff => ({ profiles: [profile('default')], sections: [], agents: [], ...over });

  it('says when no prompt changed', () => {
    expect(formatRebuildLine(diff({}), 3.4)).toBe('rebuilt in 3 ms · no prompt changed');
  });

  it('names moved sections with their direction, and every busted profile', () => {
    const line = formatRebuildLine(
      diff({
        profiles: [profile('default', { status: 'changed', cacheBust: true }), profile('simple', { status: 'changed', cacheBust: true })],
        sections: [section('style', { moved: true, kind: { old: 'static', new: 'dynamic' } }), section('memory', { status: 'added' })],
      }),
      12,
    );
    expect(line).toBe('rebuilt in 12 ms · sections: style (static → dynamic), memory (added) · ⚠ cache-bust: default, simple');
  });

  it('keeps to one line when many things change', () => {
    const sections = Array.from({ length: 11 }, (_, i) => section(`s${i}`));
    expect(formatRebuildLine(diff({ sections }), 7)).toBe('rebuilt in 7 ms · sections: s0, s1, s2, s3, s4, s5, s6, s7 … +3 more · static prefixes unchanged');
  });
});
