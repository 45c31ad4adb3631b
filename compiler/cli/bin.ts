#!/usr/bin/env node
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { main } from './main.js';

endQuietlyOnClosedPipe([process.stdout, process.stderr]);
process.exitCode = await main(process.argv.slice(2));
