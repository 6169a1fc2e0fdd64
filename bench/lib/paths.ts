/** Where the benchmarks find the repository, whichever folder of bench/ they live in. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root (bench/lib/ is two levels below it). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
