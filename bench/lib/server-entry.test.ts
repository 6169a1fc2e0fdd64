import { describe, expect, it } from 'vitest';
import { productionNodeFlags } from './server-entry.js';

describe('the benchmarks start the server as npm start does', () => {
  it("reads the Node flags from package.json's start script, the memory reducer off among them", () => {
    // Without the flag a server that went quiet once answers every later read ≈ 12 % slower
    // (docs/performance.md, the memory reducer): the benchmarks must measure the server with it.
    expect(productionNodeFlags()).toContain('--no-memory-reducer');
  });
});
