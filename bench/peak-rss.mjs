// Runs a script (the CLI's bin.js) in this process, as `node SCRIPT ARGS…`
// would, and prints the process's peak RSS on stderr when it exits:
//   node bench/peak-rss.mjs lib/bin/prompt-build.js build --root DIR
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [script, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], path.resolve(script), ...args];
process.on('exit', () => process.stderr.write(`\npeak-rss-kb ${process.resourceUsage().maxRSS}\n`));
await import(pathToFileURL(path.resolve(script)).href);
