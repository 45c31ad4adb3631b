/**
 * The HTML report in a real browser (Debian's chromium): it loads with no
 * console error and no CSP violation, shows every profile with its boundary
 * and the minimum cacheable line, a click on a line shows where the line is
 * written, and hostile section text stays text.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser, type WatchedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { writeTree } from '../helpers/tree.js';
import { builtTree, HOSTILE_IMG, HOSTILE_SCRIPT } from './tree.js';

let browser: Browser;
let root: string;
let report: WatchedPage;

beforeAll(async () => {
  [browser, root] = await Promise.all([launchBrowser(), builtTree()]);
  const run = await runCli(['report', path.join(root, 'dist'), '--out-file', path.join(root, 'report.html')]);
  expect(run.code, run.stderr).toBe(0);
  report = await browser.open(pathToFileURL(path.join(root, 'report.html')).href);
});

afterAll(async () => {
  await browser?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

describe('prompt-build report in a browser', () => {
  it('loads with no console error, page error or CSP violation, and its script runs', async () => {
    const { page, problems } = report;
    await page.locator('.ln').first().click();
    await expect.poll(() => page.locator('#source-where').textContent()).toContain('prompts/sections/');
    expect(problems).toEqual([]);
  });

  it('shows each profile as a bar with its boundary and the minimum cacheable line', async () => {
    const { page } = report;
    for (const name of ['default', 'simple']) {
      const profile = page.locator(`[data-profile="${name}"]`);
      await expect.poll(() => profile.isVisible()).toBe(true);
      expect(await profile.locator('.boundary').count()).toBe(1);
      expect(await profile.locator('.boundary').isVisible()).toBe(true);
      expect(await profile.locator('.min span').textContent()).toBe('claude-sonnet ≥ 2,048'); // the bare alias: the largest minimum of the line (cache-facts)
    }
    // default: two static sections, then the boundary, then two dynamic ones.
    const kinds = await page.locator('[data-profile="default"] .bar > *').evaluateAll((els) => els.map((e) => e.className));
    expect(kinds).toEqual(['seg static', 'seg static', 'boundary', 'seg dynamic cached', 'seg dynamic uncached']);
    // To scale: the boundary sits where the static tokens end.
    const bar = await page.locator('[data-profile="default"] .bar').boundingBox();
    const boundary = await page.locator('[data-profile="default"] .boundary').boundingBox();
    const segs = await page.locator('[data-profile="default"] .seg').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    expect(boundary!.x - bar!.x).toBeCloseTo(segs[0]! + segs[1]!, 0);
  });

  it('a click on a line shows its source file and line, and the include chain', async () => {
    const { page } = report;
    const intro = page.locator('#sections details[data-name="intro"]');
    await intro.locator('.ln', { hasText: 'Rule two.' }).click();
    expect(await page.locator('#source-where').textContent()).toBe('prompts/fragments/rules.md:2');
    expect(await page.locator('#source-chain').textContent()).toBe('included through prompts/sections/intro.md → prompts/fragments/rules.md');
    expect(await page.locator('#source-text').textContent()).toBe('Rule two.');
    await intro.locator('.ln', { hasText: 'End of intro.' }).click();
    expect(await page.locator('#source-where').textContent()).toBe('prompts/sections/intro.md:3');
    expect(await page.locator('#source-chain').textContent()).toBe('written in the text’s own source file');
    await page.locator('#sections details[data-name="env-info"] .ln').first().click();
    expect(await page.locator('#source-where').textContent()).toBe('prompts/sections/env-info.md:5');
  });

  it('shows the include chain on hover', async () => {
    const { page } = report;
    const line = page.locator('#sections details[data-name="intro"] .ln', { hasText: 'Rule one.' });
    await line.hover();
    expect(await line.getAttribute('title')).toBe('prompts/fragments/rules.md:1\nvia prompts/sections/intro.md → prompts/fragments/rules.md');
  });

  it('keeps hostile text inert: shown as text, no element made of it, no script run', async () => {
    const { page, problems } = report;
    const hostile = page.locator('#sections details[data-name="hostile"] .ln').first();
    expect(await hostile.textContent()).toBe(`Text with ${HOSTILE_SCRIPT} and ${HOSTILE_IMG} inside.`);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('[data-profile="default"] h3 small').textContent()).toBe(`The full prompt ${HOSTILE_IMG}`);
    expect(await page.locator('#sections details[data-name="mcp"] .entry-facts').textContent()).toContain(`servers come and go ${HOSTILE_IMG}`);
    expect(problems).toEqual([]);
  });
});

describe('prompt-build report OLD NEW in a browser', () => {
  it('marks the profile whose static prefix changed, loudly, and shows the text diff', async () => {
    await fs.rename(path.join(root, 'dist'), path.join(root, 'old'));
    await writeTree(root, { 'prompts/fragments/rules.md': 'Rule one.\nRule two, amended.\n' });
    const build = await runCli(['build', '--root', root, '--no-cache']);
    expect(build.code, build.stderr).toBe(0);
    const file = path.join(root, 'diff.html');
    const run = await runCli(['report', path.join(root, 'old'), path.join(root, 'dist'), '--out-file', file]);
    expect(run.code, run.stderr).toBe(0);
    const { page, problems } = await browser.open(pathToFileURL(file).href);
    const banner = page.locator('.bust-banner');
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toMatch(/^⚠ Static prefix changed — global prompt-cache bust.*default, simple/);
    expect(await page.locator('article.profile.bust').evaluateAll((els) => els.map((e) => e.getAttribute('data-profile')))).toEqual(['default', 'simple']);
    const change = page.locator('#changes details[data-name="section intro"]');
    expect(await change.locator('.dl.del').allTextContents()).toEqual(['−Rule two.']);
    expect(await change.locator('.dl.add').allTextContents()).toEqual(['+Rule two, amended.']);
    expect(problems).toEqual([]);
  });
});
