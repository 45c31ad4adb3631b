import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BundleError } from '../../compiler/runtime/bundle.js';
import { loadBundle } from '../../compiler/runtime/load-bundle.js';
import { FIXTURE_DIR, copyFixture, fixturePath } from './fixture.js';

/** Loads a damaged copy of the fixture and returns what loadBundle threw. */
async function loadDamaged(damage: (dir: string) => Promise<void>): Promise<unknown> {
  const dir = await copyFixture();
  try {
    await damage(dir);
    return await loadBundle(dir).then(
      () => new Error('loadBundle accepted a damaged bundle'),
      (error: unknown) => error,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function editManifest(dir: string, edit: (manifest: Record<string, any>) => void): Promise<void> {
  const path = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(path, 'utf8'));
  edit(manifest);
  await writeFile(path, JSON.stringify(manifest));
}

describe('loadBundle', () => {
  it('loads every profile and agent of a bundle directory', async () => {
    const bundle = await loadBundle(FIXTURE_DIR);
    expect([...bundle.profiles.keys()]).toEqual(['default', 'proactive', 'simple']);
    expect(bundle.profiles.get('default')?.staticTexts).toHaveLength(2);
    expect(bundle.profiles.get('default')?.dynamicSections.map((s) => [s.name, s.cache])).toEqual([
      ['env-info', 'cached'],
      ['mcp-instructions', 'uncached'],
    ]);
    expect([...bundle.agents.keys()]).toEqual(['explore']);
    expect(bundle.manifest.schemaVersion).toBe(1);
  });

  it('takes the directory as a file URL too', async () => {
    const bundle = await loadBundle(new URL('../fixtures/runtime-bundle', import.meta.url));
    expect(bundle.profiles.get('simple')?.staticTexts).toEqual([
      'You are a concise assistant. Answer in one paragraph.',
    ]);
  });
});

describe('loadBundle refuses a bundle it cannot trust', () => {
  it.each([
    ['a changed static text', 'static/rules.', (text: string) => text.replace('short', 'long')],
    ['a truncated static text', 'static/intro.', (text: string) => text.slice(0, 10)],
    ['a changed agent prompt', 'agents/explore.', (text: string) => `${text}Also edit files.\n`],
    ['a changed thunk', 'dynamic/env-info.', (text: string) => text.replace('Working', 'Current')],
    ['a truncated thunk', 'dynamic/mcp-instructions.', (text: string) => text.slice(0, text.length / 2)],
  ])('%s, naming the file', async (_name, prefix, change) => {
    const file = await fixturePath(prefix);
    const error = await loadDamaged(async (dir) => {
      const path = join(dir, file);
      await writeFile(path, change(await readFile(path, 'utf8')));
    });
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toContain(`artifact ${file} does not match the manifest`);
  });

  it.each([['static/simple.'], ['agents/explore.'], ['dynamic/env-info.']])('a missing %s file', async (prefix) => {
    const file = await fixturePath(prefix);
    const error = await loadDamaged((dir) => rm(join(dir, file)));
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(new RegExp(`: ${file.replace(/\./g, '\\.')} is missing$`));
  });

  it('an unknown schemaVersion, naming both versions', async () => {
    const error = await loadDamaged((dir) => editManifest(dir, (m) => void (m.schemaVersion = 2)));
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(/manifest schemaVersion 2 is not supported; this runtime reads schemaVersion 1/);
  });

  it('a missing manifest', async () => {
    const error = await loadDamaged((dir) => rm(join(dir, 'manifest.json')));
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(/manifest\.json is missing$/);
  });

  it('a truncated manifest', async () => {
    const error = await loadDamaged(async (dir) => {
      const path = join(dir, 'manifest.json');
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.slice(0, text.length / 2));
    });
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(/manifest\.json is not valid JSON/);
  });

  it('an artifact path that leaves the bundle', async () => {
    const error = await loadDamaged((dir) =>
      editManifest(dir, (m) => void (m.agents.explore.file = '../../etc/passwd')),
    );
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toContain('agent explore: file "../../etc/passwd" is not a relative path inside the bundle');
  });

  it('a static section after a dynamic one', async () => {
    const error = await loadDamaged((dir) =>
      editManifest(dir, (m) => void m.profiles.default.sections.reverse()),
    );
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toContain('profile default, section 2: static section after a dynamic one');
  });

  it('a boundary index that is not the number of static sections', async () => {
    const error = await loadDamaged((dir) => editManifest(dir, (m) => void (m.profiles.simple.boundaryIndex = 0)));
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toContain('profile simple: boundaryIndex 0 is not the static count 1');
  });

  it('an uncached section without a reason', async () => {
    const error = await loadDamaged((dir) =>
      editManifest(dir, (m) => void delete m.profiles.default.sections[3].reason),
    );
    expect(error).toBeInstanceOf(BundleError);
    expect((error as Error).message).toMatch(/uncached section mcp-instructions in profile default has no reason/);
  });
});
