/** Generated hostile trees through `prompt-build build` as a process, half 0 of the suite's sample of 40 (see hostile/run-trees.ts). */
import { hostileCliHalf } from './hostile/run-trees.js';

hostileCliHalf(0);
