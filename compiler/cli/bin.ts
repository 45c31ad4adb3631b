#!/usr/bin/env node
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { exitOnceWritten } from './exit.js';
import { main } from './main.js';

endQuietlyOnClosedPipe([process.stdout, process.stderr]);
exitOnceWritten(await main(process.argv.slice(2)));
