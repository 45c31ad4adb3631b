/**
 * One loop over `test/fixtures/build/<case>/`: each case is a project tree;
 * `expected-diagnostics.json` holds what the build must report (rule, file,
 * line, column, message) and, for cases that build, `expected/` holds the
 * compiled texts and a summary of the manifest. `UPDATE=1 npm test` rewrites
 * the expectations deliberately; review the diff before committing it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, type BuildResult } from '../../compiler/index.js';
import { copyFixture, FIXTURES, readTree } from '../helpers/tree.js';

const UPDATE = process.env.UPDATE === '1';
const DIR = path.join(FIXTURES, 'build');
const cases = (await fs.readdir(DIR)).sort();

describe('build fixtures', () => {
  it('has a fixture for every case directory', () => {
    expect(cases.length).toBeGreaterThan(15);
  });

  for (const name of cases) {
    it(name, async () => {
      const fixture = path.join(DIR, name);
      const root = await copyFixture(path.join('build', name));
      const options = await readJson<Record<string, unknown>>(path.join(fixture, 'options.json'), {});
      const result = await buildProject({ root, cacheDir: null, homeDir: root, ...options });

      const diagnostics = result.diagnostics.map(({ rule, severity, file, line, column, message }) => ({
        rule,
        severity,
        file,
        line,
        column,
        message,
      }));
      await expectJson(path.join(fixture, 'expected-diagnostics.json'), diagnostics);
      if (name.startsWith('err-')) {
        expect(result.ok).toBe(false);
        expect(diagnostics.some((d) => d.rule === ruleOf(name))).toBe(true);
        await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
      } else {
        expect(result.ok).toBe(true);
        await expectTexts(path.join(fixture, 'expected'), await compiledTexts(root, result));
      }
    });
  }
});

/** `err-include-missing` → `include/missing`. */
function ruleOf(caseName: string): string {
  const body = caseName.slice('err-'.length);
  const rules = ['frontmatter', 'include', 'section', 'template', 'profile', 'agent', 'const'];
  const group = rules.find((g) => body.startsWith(`${g}-`)) ?? 'frontmatter';
  return body === 'invalid-yaml' ? 'frontmatter/invalid-yaml' : `${group}/${body.slice(group.length + 1)}`;
}

/** What a reader of the bundle sees: each text by name, and the manifest's shape. */
async function compiledTexts(root: string, result: BuildResult): Promise<Map<string, string>> {
  const dist = await readTree(path.join(root, 'dist'));
  const manifest = result.bundle!.manifest;
  const texts = new Map<string, string>();
  for (const profile of Object.values(manifest.profiles)) {
    for (const s of profile.sections) {
      const file = s.kind === 'static' ? s.file : s.template;
      texts.set(`sections/${s.name}.${s.kind === 'static' ? 'md' : 'hbs'}`, dist.get(file)!.toString('utf8'));
    }
  }
  for (const agent of Object.values(manifest.agents)) texts.set(`agents/${agent.name}.md`, dist.get(agent.file)!.toString('utf8'));
  const summary = {
    profiles: Object.fromEntries(
      Object.values(manifest.profiles).map((p) => [
        p.name,
        { boundaryIndex: p.boundaryIndex, sections: p.sections.map((s) => `${s.name}:${s.kind}${s.kind === 'dynamic' ? `:${s.cache}` : ''}`) },
      ]),
    ),
    agents: Object.fromEntries(Object.values(manifest.agents).map(({ name, description, tools, model, extra }) => [name, { description, tools, model, extra }])),
    sources: manifest.sources,
  };
  texts.set('manifest-summary.json', `${JSON.stringify(summary, null, 2)}\n`);
  return texts;
}

async function readJson<T>(file: string, fallback: T): Promise<T> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch {
    return fallback;
  }
}

async function expectJson(file: string, actual: unknown): Promise<void> {
  if (UPDATE) await fs.writeFile(file, `${JSON.stringify(actual, null, 2)}\n`);
  expect(actual).toEqual(JSON.parse(await fs.readFile(file, 'utf8')));
}

async function expectTexts(dir: string, actual: Map<string, string>): Promise<void> {
  if (UPDATE) {
    await fs.rm(dir, { recursive: true, force: true });
    for (const [rel, text] of actual) {
      await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await fs.writeFile(path.join(dir, rel), text);
    }
  }
  const expected = await readTree(dir);
  expect([...actual.keys()].sort()).toEqual([...expected.keys()]);
  for (const [rel, text] of actual) expect(text, rel).toBe(expected.get(rel)!.toString('utf8'));
}
