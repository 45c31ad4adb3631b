/**
 * `prompt-build watch --serve` in a real browser: the report of the working
 * tree, reloaded after an edit; after a breaking edit the diagnostics above
 * the last good build; and a server that listens on loopback only and
 * answers only to a loopback Host.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser, type WatchedPage } from '../helpers/browser.js';
import { tempDir, writeTree } from '../helpers/tree.js';
import { WatchProcess } from '../watch/watch-process.js';

let root: string;
let watcher: WatchProcess;
let browser: Browser;
let url: string;
let preview: WatchedPage;

const intro = () => preview.page.locator('#sections details[data-name="intro"] .ln').first().textContent();

/**
 * Saves as an editor that renames a finished file into place: the watcher never
 * sees the file empty. `fs.writeFile` truncates, then writes; on a loaded machine
 * the watcher's quiet period can end between the two, and a build of the empty
 * section would become the "last good build" this test looks for.
 */
async function save(rel: string, text: string): Promise<void> {
  const temporary = path.join(root, 'saving.tmp');
  await fs.writeFile(temporary, text);
  await fs.rename(temporary, path.join(root, rel));
}

beforeAll(async () => {
  root = await tempDir('pb-serve-');
  await writeTree(root, {
    'prompts/sections/intro.md': 'You are a coding agent.\n',
    'prompts/sections/env-info.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
    'prompts/profiles/default.md': '---\ncacheWarning: false\nsections: [intro, env-info]\n---\n',
  });
  watcher = new WatchProcess(root, ['--no-cache', '--serve', '--port', '0']);
  browser = await launchBrowser();
  url = /serving the report on (http:\/\/\S+)$/.exec(await watcher.waitFor(/^serving the report on /))![1]!;
  await watcher.waitFor(/^watching /);
  preview = await browser.open(url);
});

afterAll(async () => {
  await browser?.close();
  await watcher?.stop();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

describe('prompt-build watch --serve', () => {
  it('serves the report of the working tree, with no console error or CSP violation', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await preview.page.locator('[data-profile="default"] .boundary').count()).toBe(1);
    expect(await intro()).toBe('You are a coding agent.');
    expect(preview.problems).toEqual([]);
  });

  it('reloads the page after an edit', async () => {
    await fs.writeFile(path.join(root, 'prompts/sections/intro.md'), 'You are a careful coding agent.\n');
    await expect.poll(intro, { timeout: 15_000 }).toBe('You are a careful coding agent.');
    expect(await preview.page.locator('#build-failure').count()).toBe(0);
  });

  it('after a breaking edit shows the diagnostics above the last good build, and recovers with the next save', async () => {
    await save('prompts/sections/intro.md', 'You work in {{cwd}}.\n');
    const failure = preview.page.locator('#build-failure');
    await expect.poll(() => failure.count(), { timeout: 15_000 }).toBe(1);
    expect(await failure.textContent()).toMatch(/^✖ Build failed — showing the last good build below[\s\S]*prompts\/sections\/intro\.md:1:\d+: error /);
    expect(await intro()).toBe('You are a careful coding agent.');
    await fs.writeFile(path.join(root, 'prompts/sections/intro.md'), 'You are a coding agent again.\n');
    await expect.poll(intro, { timeout: 15_000 }).toBe('You are a coding agent again.');
    expect(await failure.count()).toBe(0);
    expect(preview.problems).toEqual([]);
  });

  it('listens on 127.0.0.1 only', async () => {
    const port = Number(new URL(url).port);
    const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
    const listening = async (file: string) =>
      (await fs.readFile(file, 'utf8').catch(() => ''))
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((cols) => cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A')
        .map((cols) => cols[1]);
    expect(await listening('/proc/net/tcp')).toEqual([`0100007F:${hexPort}`]);
    expect(await listening('/proc/net/tcp6')).toEqual([]);
  });

  it('answers only to a loopback Host, and only GET', async () => {
    const request = (headers: Record<string, string>, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const r = http.request(url, { method, headers }, (response) => {
          response.resume();
          resolve(response.statusCode!);
        });
        r.on('error', reject);
        r.end();
      });
    expect(await request({})).toBe(200);
    expect(await request({ host: 'evil.example' })).toBe(403);
    expect(await request({}, 'POST')).toBe(405);
  });
});
