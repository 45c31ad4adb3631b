// One whole build process, as a user runs it, reporting its own peak memory.
import { main } from '../lib/cli/main.js';

const io = { out: () => {}, err: (t) => process.env.BENCH_VERBOSE && process.stderr.write(`${t}\n`) };
const code = await main(process.argv.slice(2), io);
process.stdout.write(JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS }));
