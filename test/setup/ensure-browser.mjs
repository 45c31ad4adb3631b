#!/usr/bin/env node
// Before `vitest run`: the report's browser tests drive Debian's chromium
// (playwright-core downloads no browser of its own). Installs it when it is
// missing and this machine can (root with apt-get), so `npm test` is all a
// newcomer runs; says what to do otherwise.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  const canInstall = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) for the report's browser tests`);
    process.exit(1);
  }
  console.error(`${CHROMIUM} is missing: installing Debian's chromium for the report's browser tests…`);
  const apt = (args) => execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', 'chromium']);
}
