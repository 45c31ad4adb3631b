/** Generated hostile trees, quarter 2 of the suite's 1,000, through the library in-process (see hostile/run-trees.ts). */
import { hostileQuarter } from './hostile/run-trees.js';

hostileQuarter(2);
