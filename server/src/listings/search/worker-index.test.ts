import type { Listing } from '@campus/contract';
import { afterEach, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../../test/helper.js';
import { postListing, validFields } from '../testing.js';
import { WorkerSearchIndex } from './worker-index.js';

/**
 * The server's search index lives in a worker thread (worker-index.ts). search.test.ts runs every
 * search rule through it; these are the rules of the thread itself, as a student would notice them.
 */
describe.each(dialects)('search index in a worker thread (%s)', (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function search(app: TestApp, student: Student, query: string): Promise<string[]> {
    const res = await asStudent(app, student, {
      method: 'GET',
      url: `/listings/search?query=${encodeURIComponent(query)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Listing[]).map((l) => l.name);
  }

  function workerIndex(app: TestApp): WorkerSearchIndex {
    const index = app.app.listings.search;
    if (!(index instanceof WorkerSearchIndex)) throw new Error('this app searches in-process');
    return index;
  }

  it('a listing is found by the very next search after it is posted, edited or sold', async () => {
    t = await createTestApp({ dialect, searchWorker: true, env: { SEARCH_THREADS: '1' } });
    const seller = await createStudent(t);
    const buyer = await createStudent(t);
    // Started, index built, before the writes: each write then reaches a running worker.
    expect(await search(t, buyer, 'anything')).toEqual([]);
    expect(workerIndex(t).thread).toBeDefined();

    const bike = await postListing(
      t,
      seller,
      validFields({ name: 'Road bike', description: 'Aluminium frame' }),
    );
    expect(await search(t, buyer, 'road bike')).toEqual(['Road bike']);

    const edit = await asStudent(t, seller, {
      method: 'PATCH',
      url: `/listing/${bike.id}`,
      payload: { name: 'Gravel bike' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await search(t, buyer, 'gravel')).toEqual(['Gravel bike']);
    expect(await search(t, buyer, 'road bike')).toEqual([]);

    await asStudent(t, seller, { method: 'PUT', url: `/listings/sold/${bike.id}` });
    expect(await search(t, buyer, 'gravel')).toEqual([]);
  });

  it('a worker that stops is replaced on the next search, which still finds every listing', async () => {
    t = await createTestApp({ dialect, searchWorker: true, env: { SEARCH_THREADS: '1' } });
    const seller = await createStudent(t);
    const buyer = await createStudent(t);
    await postListing(t, seller, validFields({ name: 'Desk lamp', description: 'LED, USB port' }));
    expect(await search(t, buyer, 'lamp')).toEqual(['Desk lamp']);

    const first = workerIndex(t).thread;
    await first?.terminate();
    // Written while no worker runs: the new worker reads it from the database.
    await postListing(t, seller, validFields({ name: 'Floor lamp', description: 'Tall, warm light' }));
    expect((await search(t, buyer, 'lamp')).sort()).toEqual(['Desk lamp', 'Floor lamp']);
    expect(workerIndex(t).thread).toBeDefined();
    expect(workerIndex(t).thread).not.toBe(first);
  });

  it.each(['1', '2'])(
    "with %s thread(s) each campus's searches find only its own listings, after a restart too",
    async (threads) => {
      t = await createTestApp({
        dialect,
        searchWorker: true,
        env: { ...TWO_CAMPUSES, SEARCH_THREADS: threads },
      });
      const msu = await createStudent(t);
      const uw = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
      // Posted before the index is built: the workers load them from the database, across campuses.
      await postListing(t, msu, validFields({ name: 'Zamboni model kit', description: 'Ice resurfacer' }));
      await postListing(t, uw, validFields({ name: 'Desk lamp', description: 'Warm light' }));
      expect(await search(t, uw, 'zamboni')).toEqual([]);
      expect(await search(t, msu, 'zamboni')).toEqual(['Zamboni model kit']);
      // Written while the workers run: applied to the writer's campus's partition only.
      await postListing(t, uw, validFields({ name: 'Floor lamp', description: 'Tall' }));
      expect((await search(t, uw, 'lamp')).sort()).toEqual(['Desk lamp', 'Floor lamp']);
      expect(await search(t, msu, 'lamp')).toEqual([]);
      if (threads === '1') {
        await workerIndex(t).thread?.terminate();
        expect(await search(t, msu, 'lamp')).toEqual([]);
        expect((await search(t, uw, 'lamp')).sort()).toEqual(['Desk lamp', 'Floor lamp']);
      }
    },
  );

  it('closing the app ends the worker thread', async () => {
    t = await createTestApp({ dialect, searchWorker: true, env: { SEARCH_THREADS: '1' } });
    const student = await createStudent(t);
    await search(t, student, 'chair');
    const thread = workerIndex(t).thread;
    expect(thread).toBeDefined();
    const exited = new Promise<number>((resolve) => thread?.once('exit', resolve));
    await t.close();
    t = undefined;
    expect(await exited).toBe(0);
  });
});
