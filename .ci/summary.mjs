// Prints one closing line CI can read: "total: N passed, N failed" (unit + browser tests).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync('test-results/vitest.json')) {
  const v = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  console.log(`unit: ${v.numPassedTests} passed, ${v.numFailedTests} failed`);
}
if (existsSync('e2e/artifacts/report.json')) {
  const p = JSON.parse(readFileSync('e2e/artifacts/report.json', 'utf8'));
  const s = p.stats ?? {};
  const ok = (s.expected ?? 0) + (s.flaky ?? 0);
  passed += ok;
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  console.log(`browser: ${ok} passed, ${s.unexpected ?? 0} failed`);
}
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
