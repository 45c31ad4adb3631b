// One whole process of the command, as `npx prompt-build` runs it (the bundled
// lib/bin/prompt-build.js), that prints on its last line of standard output its
// exit code and its own peak memory, and exits 0 once it has said so.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'lib/bin/prompt-build.js');
process.argv = [process.argv[0], BIN, ...process.argv.slice(2)];
if (!process.env.BENCH_VERBOSE) process.stderr.write = () => true;
process.on('exit', (code) => {
  fs.writeSync(1, `\n${JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS })}\n`);
  process.exitCode = 0;
});
await import(pathToFileURL(BIN).href);
