/**
 * The HTML report of a crafted bundle, in Chromium: every field of a real
 * build's manifest — every string and every number, names used as keys,
 * source-map files, lines and chains, the texts — replaced by markup made to
 * break out of an element or an attribute (`"><img onerror>`, a
 * `<meta http-equiv=refresh>` that would send the viewer elsewhere,
 * `</script>`). None of it may reach the DOM as markup: the page's elements
 * are exactly those of the same report with a harmless word in every field,
 * and no injected element, attribute, script or navigation exists.
 *
 * The report is rendered in process (reportData → reportHtml), so the
 * manifest is not first checked by a reader: the escaping at output holds
 * by itself. The CLI's `report OLD NEW` is then run on a crafted bundle on
 * disk with the fields its reader accepts.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest, SourceMap } from '../../compiler/runtime/manifest.js';
import type { BundleContents } from '../../compiler/report/bundle-contents.js';
import { reportHtml } from '../../compiler/report/html/page.js';
import { costFactsFor } from '../../compiler/report/model-facts.js';
import { reportData } from '../../compiler/report/report-data.js';
import { readManifestJson, renameKey, writeManifestJson, type JsonObject } from '../helpers/crafted-bundle.js';
import { launchBrowser, type Browser, type WatchedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { builtTree } from './tree.js';

/** Breaks out of a quoted attribute, an element and a script, and would redirect the page. */
const PAYLOAD =
  `"'><img class=pwned src=x onerror="window.__pwned=1"><meta http-equiv=refresh content="0;url=https://evil.example/">` +
  `</script><script>window.__pwned=2</script><svg onload="window.__pwned=3"></svg>`;
/** As long as PAYLOAD, so texts built from either split into lines at the same source-map offsets. */
const HARMLESS = 'harmless'.padEnd(PAYLOAD.length, '-');
/** Records whose keys are data (names and paths), renamed like values. */
const KEYED = new Set(['profiles', 'agents', 'sources', 'tokenCounts', 'staticTokenCounts']);

let root: string;
let browser: Browser;
let manifest: JsonObject;
let texts: Map<string, string>;
let maps: Map<string, SourceMap>;

beforeAll(async () => {
  [browser, root] = await Promise.all([launchBrowser(), builtTree()]);
  const dist = path.join(root, 'dist');
  manifest = await readManifestJson(dist);
  texts = new Map();
  maps = new Map();
  for (const file of await fs.readdir(dist, { recursive: true })) {
    if (/^(static|agents)\/.*\.md$|^dynamic\/.*\.hbs$/.test(file)) texts.set(file, await fs.readFile(path.join(dist, file), 'utf8'));
    if (file.startsWith('maps/') && file.endsWith('.json')) maps.set(file, JSON.parse(await fs.readFile(path.join(dist, file), 'utf8')) as SourceMap);
  }
});

afterAll(async () => {
  await browser?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

/**
 * Every leaf of `value` replaced: the same original by the same
 * replacement (so names, paths and keys still refer to each other), each
 * different original by `word` and a number of its own. `keep` names the
 * fields left as built.
 */
function replacer(word: string, keep: ReadonlySet<string>) {
  const seen = new Map<unknown, string>();
  const leaf = (original: unknown) => {
    if (!seen.has(original)) seen.set(original, `${word}${seen.size}`);
    return seen.get(original)!;
  };
  const walk = (value: unknown, key = ''): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [KEYED.has(key) ? leaf(k) : k, keep.has(k) ? v : walk(v, k)]),
      );
    }
    return value === null ? null : leaf(value);
  };
  return { walk, leaf };
}

/** One side of the report: the manifest, its texts and its maps, every field replaced. `side` changes the texts and hashes. */
function crafted(word: string, keep: ReadonlySet<string>, side: 'old' | 'new'): BundleContents {
  const { walk, leaf } = replacer(word, keep);
  const m = walk(manifest) as unknown as Manifest;
  if (side === 'old') {
    // Other hashes and texts: every section and agent changed, every profile's static prefix with it (a bust banner).
    for (const p of Object.values(m.profiles)) {
      p.staticPrefixHash = `${p.staticPrefixHash}-old`;
      for (const s of p.sections) s.hash = `${s.hash}-old`;
    }
    for (const a of Object.values(m.agents)) a.hash = `${a.hash}-old`;
  }
  const textMap = new Map([...texts].map(([file, text]) => [leaf(file), side === 'new' ? text.replace(/^/gm, `${word} `) : text]));
  const mapMap = new Map(
    [...maps].map(([file, map]) => [
      leaf(file),
      { ...map, segments: map.segments.map((s) => ({ ...s, file: leaf(s.file), line: leaf(s.line), chain: s.chain.map(leaf) })) } as unknown as SourceMap,
    ]),
  );
  return { label: leaf(`bundle-${side}`), manifest: m, texts: textMap, maps: mapMap };
}

function page(word: string, keep: ReadonlySet<string>): string {
  const data = reportData(crafted(word, keep, 'new'), [costFactsFor('claude-sonnet'), costFactsFor(word)], crafted(word, keep, 'old'));
  return reportHtml(data, { failure: [`${word} diagnostic`] });
}

/** Every element in document order with its attribute names; and what an injection would leave behind. */
async function skeleton(report: WatchedPage) {
  return report.page.evaluate(() => ({
    elements: [...document.querySelectorAll('*')].map((e) => `${e.tagName} ${[...e.attributes].map((a) => a.name).sort().join(' ')}`),
    injected: document.querySelectorAll('img, svg, meta[http-equiv="refresh" i], .pwned, [onerror], [onload]').length,
    scripts: document.scripts.length,
    pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
    text: document.documentElement.textContent ?? '',
  }));
}

async function open(html: string, name: string): Promise<WatchedPage> {
  const file = path.join(root, name);
  await fs.writeFile(file, html);
  return browser.open(pathToFileURL(file).href);
}

describe('the HTML report of a crafted manifest, in Chromium', () => {
  for (const [variant, keep] of [
    ['every field but kind and cache', new Set(['kind', 'cache', 'start', 'end'])],
    ['every field, kind and cache too', new Set(['start', 'end'])],
  ] as const) {
    it(`${variant}: no value reaches the DOM as markup`, async () => {
      const hostile = await open(page(PAYLOAD, keep), 'hostile.html');
      const harmless = await open(page(HARMLESS, keep), 'harmless.html');
      const [h, ok] = [await skeleton(hostile), await skeleton(harmless)];
      expect(h.elements).toEqual(ok.elements);
      expect(h.injected).toBe(0);
      expect(h.scripts).toBe(2);
      expect(h.pwned).toBeNull();
      expect(hostile.page.url()).toBe(pathToFileURL(path.join(root, 'hostile.html')).href);
      // The live page's event stream has no server behind a file: URL; anything else would be an injected load or a CSP violation.
      expect(hostile.problems.filter((p) => !/file:\/\/\/events|^Failed to load resource: net::ERR_FAILED$/.test(p))).toEqual([]);
      // The payload is shown as text, as often as the harmless word is.
      const count = (text: string, word: string) => text.split(word).length - 1;
      expect(count(h.text, PAYLOAD)).toBeGreaterThan(20);
      expect(count(h.text, PAYLOAD)).toBe(count(ok.text, HARMLESS));
    });
  }

  it('keeps a line number the manifest holds as markup inside its attribute (the refresh that once redirected)', async () => {
    const contents = crafted(HARMLESS, new Set(['kind', 'cache', 'start', 'end', 'line']), 'new');
    const agent = Object.values(contents.manifest.agents)[0]!;
    (agent as { line: unknown }).line = PAYLOAD;
    delete (agent as { map?: string }).map;
    const report = await open(reportHtml(reportData(contents, [])), 'line.html');
    const s = await skeleton(report);
    expect(s.injected).toBe(0);
    expect(s.pwned).toBeNull();
    expect(report.page.url()).toBe(pathToFileURL(path.join(root, 'line.html')).href);
    const lines = await report.page.locator(`details[data-name^="agent "] .ln`).evaluateAll((els) => els.map((e) => e.getAttribute('data-line')));
    // `line + index`: the string stays a string, whole, in the attribute.
    expect(lines[0]).toBe(`${PAYLOAD}00`);
  });
});

describe('prompt-build report OLD NEW on a crafted bundle on disk', () => {
  it('shows every string the reader accepts as text', async () => {
    const dist = path.join(root, 'dist');
    const crafted = path.join(root, 'crafted');
    await fs.cp(dist, crafted, { recursive: true });
    const m = await readManifestJson(crafted);
    let n = 0;
    const hostile = () => `${PAYLOAD}${n++}`;
    for (const name of Object.keys(m.profiles as JsonObject)) m.profiles = renameKey(m.profiles as JsonObject, name, hostile());
    for (const name of Object.keys(m.agents as JsonObject)) m.agents = renameKey(m.agents as JsonObject, name, hostile());
    const entries = [...Object.values(m.profiles as Record<string, JsonObject>), ...Object.values(m.agents as Record<string, JsonObject>)];
    for (const entry of entries) {
      for (const field of ['description', 'source', 'model', 'reason']) if (typeof entry[field] === 'string') entry[field] = hostile();
      if (Array.isArray(entry.tools)) entry.tools = [hostile(), hostile()];
      for (const s of (entry.sections as JsonObject[] | undefined) ?? []) {
        s.name = hostile();
        s.source = hostile();
        if (typeof s.reason === 'string') s.reason = hostile();
        if (Array.isArray(s.inputs)) s.inputs = (s.inputs as string[]).map(() => hostile());
        if (Array.isArray(s.optional)) s.optional = [];
      }
    }
    (m.tool as JsonObject).name = hostile();
    (m.tool as JsonObject).version = hostile();
    await writeManifestJson(crafted, m);
    const out = path.join(root, 'crafted-report.html');
    const run = await runCli(['report', dist, crafted, '--out-file', out]);
    expect(run.code, run.stderr).toBe(0);
    const report = await browser.open(pathToFileURL(out).href);
    const s = await skeleton(report);
    expect(s.injected).toBe(0);
    expect(s.scripts).toBe(1);
    expect(s.pwned).toBeNull();
    expect(report.page.url()).toBe(pathToFileURL(out).href);
    expect(report.problems).toEqual([]);
    expect(s.text.split(PAYLOAD).length - 1).toBeGreaterThan(n);
  });
});
