/**
 * Cost of the safety checks' text folding (server/src/safety/fold.ts) on the paths that run it:
 * the anti-scam guard on every chat SEND and the prohibited-terms check on every listing write.
 * Prints microseconds per call for ordinary and disguised texts.
 *
 *   npx tsx bench/probes/safety-fold.ts
 */
import { DEFAULT_PROHIBITED_RULES } from '@campus/contract';
import { scamFlags } from '../../server/src/safety/scam.js';
import { findProhibited } from '../../server/src/safety/terms.js';

const MESSAGES = [
  'Is it still available? I can meet at the library at 3pm tomorrow.',
  'Can you Venmo me $50 first to hold it? Lots of people want it',
  'S\u0435nd a dep\u200Bosit on v\u0435nmo first, then we meet by the union',
  'x'.repeat(1900) + ' call me',
];
const LISTING = [
  'Graphing calculator TI-84 Plus',
  'Barely used, comes with the cover and fresh batteries. Pick up near Brody or the library. '.repeat(10),
];

function time(label: string, runs: number, fn: () => void): void {
  for (let i = 0; i < 1000; i += 1) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i += 1) fn();
  const us = Number(process.hrtime.bigint() - start) / 1000 / runs;
  console.log(`${label.padEnd(44)} ${us.toFixed(2)} µs/call`);
}

for (const m of MESSAGES) time(`scamFlags ${JSON.stringify(m.slice(0, 28))}`, 20_000, () => scamFlags(m, 0));
time('findProhibited (listing name + description)', 5_000, () =>
  findProhibited(DEFAULT_PROHIBITED_RULES, LISTING[0]!, LISTING[1]!),
);
