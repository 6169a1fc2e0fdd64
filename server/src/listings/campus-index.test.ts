import { type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { overSocket } from '../../test/socket-client.js';
import { currentCampusId, inCampus } from '../db/campus-scope.js';
import { LiveSearchIndex } from './search/live-index.js';
import { postListing, validFields } from './testing.js';

/**
 * What is kept per campus in memory (features.md §E): the search index's partitions and the hot
 * reads answered before routing (http/fast-lane.ts).
 */
describe.each(dialects)("each campus's search partition and hot reads (%s)", (dialect) => {
  let t: TestApp;
  let msu: Student;
  let uw: Student;
  /** Readers who sell nothing: a seller's own listings carry counts read fresh, never from memory. */
  let msuBuyer: Student;
  let uwBuyer: Student;
  let socket: ReturnType<typeof overSocket>;
  const msuIds: number[] = [];
  const uwIds: number[] = [];
  let msuLamp: Listing;

  /** Reads over a real socket; says whether the fast lane answered. */
  const laneRead = async (student: Student, url: string) => {
    const before = t.app.fastLane.served;
    const answer = await socket.as(student, { method: 'GET', url });
    return { status: answer.statusCode, body: answer.body, lane: t.app.fastLane.served > before };
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: TWO_CAMPUSES });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    socket = overSocket(t);
    msu = await createStudent(t);
    uw = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    msuBuyer = await createStudent(t);
    uwBuyer = await createStudent(t, { domain: TEST_CAMPUS_DOMAINS.uw });
    for (const name of ['Desk lamp', 'Bike lock', 'Kettle'])
      msuIds.push((await postListing(t, msu, validFields({ name }))).id);
    for (const name of ['Desk lamp', 'Rain jacket'])
      uwIds.push((await postListing(t, uw, validFields({ name }))).id);
    msuLamp = (await asStudent(t, msu, { method: 'GET', url: `/listing/${msuIds[0]}` })).json() as Listing;
  });
  afterAll(async () => {
    socket.agent.destroy();
    await t.close();
  });

  it("each campus's partition of the index holds only that campus's listings", async () => {
    // A search builds the index; it is the in-process one in tests.
    await asStudent(t, uw, { method: 'GET', url: '/listings/search?query=lamp' });
    const index = t.app.listings.search;
    if (!(index instanceof LiveSearchIndex)) throw new Error('expected the in-process index');
    const msuPart = index.partition(msu.campusId);
    const uwPart = index.partition(uw.campusId);
    expect(msuPart?.size).toBe(msuIds.length);
    expect(uwPart?.size).toBe(uwIds.length);
    for (const id of msuIds) expect([msuPart?.has(id), uwPart?.has(id)]).toEqual([true, false]);
    for (const id of uwIds) expect([uwPart?.has(id), msuPart?.has(id)]).toEqual([true, false]);
    // A campus with no listings has nothing to search.
    expect(await index.search(987_654, 'lamp', {}, 10)).toEqual([]);
  });

  it('the index loads every campus once, whichever campus asks first', async () => {
    // On PostgreSQL a load in the asker's scope would see only that campus's rows.
    const index = new LiveSearchIndex(t.app.ctx.db);
    await inCampus(uw.campusId, () => index.warm());
    expect(index.partition(msu.campusId)?.size).toBe(msuIds.length);
    expect(index.partition(uw.campusId)?.size).toBe(uwIds.length);
    const hits = await inCampus(uw.campusId, () => index.search(uw.campusId, 'lamp', {}, 10));
    expect(hits.map((h) => h.id)).toEqual([uwIds[0]]);
  });

  it("the fast lane answers a first page with the caller's campus's listings only", async () => {
    for (const [student, own] of [
      [msuBuyer, msuIds],
      [uwBuyer, uwIds],
    ] as const) {
      await laneRead(student, '/listings');
      const second = await laneRead(student, '/listings');
      expect(second.lane).toBe(true);
      expect(second.status).toBe(200);
      const listed = (JSON.parse(second.body) as Listing[]).map((l) => l.id);
      expect(listed.sort()).toEqual([...own].sort());
    }
  });

  it("a read in the fast lane runs as work of the caller's campus", async () => {
    t.app.fastLane.exactGet('/campus-probe', () => ({ body: String(currentCampusId()) }));
    for (const student of [msuBuyer, uwBuyer]) {
      await laneRead(student, '/listings');
      const probe = await laneRead(student, '/campus-probe');
      expect(probe.lane).toBe(true);
      expect(probe.body).toBe(String(student.campusId));
    }
  });

  it("the fast lane never serves one campus's cached listing to another", async () => {
    const url = `/listing/${msuLamp.id}`;
    await laneRead(msuBuyer, url);
    const cached = await laneRead(msuBuyer, url);
    expect([cached.lane, cached.status]).toEqual([true, 200]);
    // The caller's own caches (saves, blocks) warm, as for any answer from memory: still refused.
    expect((await laneRead(uwBuyer, `/listing/${uwIds[0]}`)).status).toBe(200);
    for (let i = 0; i < 2; i += 1) {
      const other = await laneRead(uwBuyer, url);
      expect([other.lane, other.status]).toEqual([false, 404]);
    }
    const other = await laneRead(uwBuyer, url);
    const unknown = await laneRead(uwBuyer, '/listing/987654321');
    expect(other.body).toBe(unknown.body);
  });
});
