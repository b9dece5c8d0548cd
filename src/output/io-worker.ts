/**
 * The file thread's own entry (output/io-thread.ts), bundled apart from the CLI (bin/site.js): it
 * needs the survey and the carry's links alone, so it loads in a few milliseconds where a thread
 * running the CLI bundle takes ~130 ms of CPU.
 */
import { runIoWorker } from './io-thread.ts';

runIoWorker();
