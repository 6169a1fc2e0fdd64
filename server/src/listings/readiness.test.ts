/**
 * GET /readyz and the search index (listings/readiness.ts): a process whose memory index is still
 * loading answers 503 NOT_READY, so nginx and monitors keep it out of rotation until a search
 * would answer at once; with search in PostgreSQL there is nothing to load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, searchEngines, type TestApp } from '../../test/helper.js';
import { LiveSearchIndex } from './search/live-index.js';

const NOT_READY = { message: 'Search index still loading', code: 'NOT_READY' };

/**
 * Holds every in-thread index load until `release` (or fails the first with `fail`): a load of a
 * million listings takes minutes; here it takes as long as the test says.
 */
function holdIndexLoads() {
  let release!: () => void;
  let fail!: (err: Error) => void;
  let held = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  const load = LiveSearchIndex.prototype.warm;
  const spy = vi.spyOn(LiveSearchIndex.prototype, 'warm').mockImplementation(async function (
    this: LiveSearchIndex,
  ) {
    const gate = held;
    // After a failure the next load goes through.
    held = Promise.resolve();
    await gate;
    return load.call(this);
  });
  return { release: () => release(), fail: (err: Error) => fail(err), spy };
}

describe.each(searchEngines)(
  'GET /readyz while the search index loads ($name)',
  ({ dialect, engine, env }) => {
    let t: TestApp | undefined;
    afterEach(async () => {
      vi.restoreAllMocks();
      await t?.close();
      t = undefined;
    });

    const readyz = async () => {
      const res = await t!.app.inject({ method: 'GET', url: '/readyz' });
      return { status: res.statusCode, body: res.json() as unknown };
    };
    const ready = { status: 200, body: { status: 'ready', database: dialect } };

    it(
      engine === 'memory'
        ? 'answers 503 until the index is loaded, then 200'
        : 'is ready at once: nothing to load',
      async () => {
        const loads = holdIndexLoads();
        t = await createTestApp({ dialect, env, loadSearchIndexAtStart: true });
        if (engine === 'postgres') {
          expect(await readyz()).toEqual(ready);
          return;
        }
        expect(await readyz()).toEqual({ status: 503, body: NOT_READY });
        expect(await readyz()).toEqual({ status: 503, body: NOT_READY });
        loads.release();
        await vi.waitFor(async () => expect(await readyz()).toEqual(ready));
      },
    );

    it.runIf(engine === 'memory')(
      'stays not ready after a failed load, and loads again when asked',
      async () => {
        const loads = holdIndexLoads();
        t = await createTestApp({ dialect, env, loadSearchIndexAtStart: true });
        expect(await readyz()).toEqual({ status: 503, body: NOT_READY });
        loads.fail(new Error('database away'));
        // The failed load is logged; the next check starts another, which goes through.
        await vi.waitFor(async () => expect(await readyz()).toEqual(ready));
        expect(loads.spy.mock.calls.length).toBeGreaterThanOrEqual(2);
      },
    );

    it.runIf(engine === 'memory')(
      'is ready at once where the index loads on the first search (tests)',
      async () => {
        holdIndexLoads();
        t = await createTestApp({ dialect, env });
        expect(await readyz()).toEqual(ready);
      },
    );
  },
);
