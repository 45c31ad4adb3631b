/**
 * Debian's chromium driven by playwright-core: one browser per test file
 * (launching costs seconds), a fresh profile in a temporary directory, no
 * network, and every page watched for console errors, uncaught exceptions
 * and Content-Security-Policy violations.
 */
import fs from 'node:fs/promises';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { tempDir } from './tree.js';

export const CHROMIUM = '/usr/bin/chromium';

export interface Browser {
  open(url: string): Promise<WatchedPage>;
  close(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
}

export async function launchBrowser(): Promise<Browser> {
  const profile = await tempDir('pb-chromium-');
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // Nothing but the page itself may be fetched: a report that reaches for the network fails its test.
  await context.route((url) => url.protocol !== 'file:' && url.protocol !== 'data:' && url.hostname !== '127.0.0.1', (route) => route.abort());
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return {
    async open(url) {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('requestfailed', (request) => {
        const reason = request.failure()?.errorText;
        // The page's own cancellation (an event stream closed before a reload) is not a failure.
        if (reason !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} (${reason})`);
      });
      await page.goto(url);
      return { page, problems };
    },
    async close() {
      await context.close();
      await fs.rm(profile, { recursive: true, force: true });
    },
  };
}
