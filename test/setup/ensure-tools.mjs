#!/usr/bin/env node
// Before `vitest run`: the programs some tests drive that nobody here wrote —
// Debian's chromium for the report's browser tests (playwright-core downloads
// no browser of its own) and Debian's neovim for the language server's
// real-editor test. Installs what is missing when this machine can (root with
// apt-get), so `npm test` is all a newcomer runs; says what to do otherwise.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const TOOLS = [
  { path: '/usr/bin/chromium', pkg: 'chromium', why: 'the report’s browser tests' },
  { path: '/usr/bin/nvim', pkg: 'neovim', why: 'the language server’s editor test' },
];

const missing = TOOLS.filter((t) => !fs.existsSync(t.path));
if (missing.length > 0) {
  const canInstall = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  const list = missing.map((t) => `${t.path} (${t.why})`).join(', ');
  if (!canInstall) {
    console.error(`missing: ${list}; install Debian's ${missing.map((t) => t.pkg).join(' and ')} (apt-get install ${missing.map((t) => t.pkg).join(' ')})`);
    process.exit(1);
  }
  console.error(`missing: ${list}; installing…`);
  const apt = (args) => execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', ...missing.map((t) => t.pkg)]);
}
