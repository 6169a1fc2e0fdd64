import { LIMITS, type Listing } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, createTestApp, type Student, type TestApp } from '../../test/helper.js';
import { overSocket, type Answer } from '../../test/socket-client.js';
import { postListing, validFields } from '../listings/testing.js';

/** Headers that differ between any two answers: the clock, the request id, the connection's own. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);
const comparable = (headers: Answer['headers'] | Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name)));

describe('the fast lane: hot reads answered before routing', () => {
  let t: TestApp;
  let alice: Student;
  let bob: Student;
  let listing: Listing;
  let socket: ReturnType<typeof overSocket>;

  /** Reads over the socket; says whether the lane answered. */
  const laneRead = async (student: Pick<Student, 'token'>, url: string, headers?: Record<string, string>) => {
    const before = t.app.fastLane.served;
    const answer = await socket.as(student, { method: 'GET', url, headers });
    return { answer, lane: t.app.fastLane.served > before };
  };

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    socket = overSocket(t);
    [alice, bob] = [await createStudent(t), await createStudent(t)];
    // One more than a page: the first page of browsing has a Link to the next.
    for (let i = 0; i < LIMITS.pageDefault; i += 1)
      await postListing(t, alice, validFields({ name: `Lamp ${i}` }));
    listing = await postListing(t, alice, validFields({ name: 'Desk lamp' }));
  });
  afterAll(async () => {
    socket.agent.destroy();
    await t.close();
  });

  it.each(['/listing/{id}', '/listings/recent', '/listings'])(
    '%s: the second read comes from the lane with the status, headers and bytes Fastify sends',
    async (path) => {
      const url = path.replace('{id}', String(listing.id));
      const first = await laneRead(bob, url);
      expect(first.lane).toBe(false); // cold: the route reads and fills the caches
      const second = await laneRead(bob, url);
      expect(second.lane).toBe(true);
      // The same request through Fastify's router (inject never reaches the lane).
      const routed = await asStudent(t, bob, { method: 'GET', url });
      expect(second.answer.statusCode).toBe(routed.statusCode);
      expect(second.answer.body).toBe(routed.body);
      expect(comparable(second.answer.headers)).toEqual(comparable(routed.headers));
      expect(second.answer.headers['x-request-id']).toMatch(/^[\w-]+$/);
      if (path !== '/listing/{id}') expect(second.answer.headers.link).toContain('rel="next"');
    },
  );

  it("echoes the caller's request id and gives each answer its own otherwise", async () => {
    const url = `/listing/${listing.id}`;
    await laneRead(bob, url);
    const traced = await laneRead(bob, url, { 'x-request-id': 'trace-42' });
    expect(traced.lane).toBe(true);
    expect(traced.answer.headers['x-request-id']).toBe('trace-42');
    const [a, b] = [await laneRead(bob, url), await laneRead(bob, url)];
    expect(a.answer.headers['x-request-id']).not.toBe(b.answer.headers['x-request-id']);
  });

  it('leaves to Fastify what it does not answer from memory, which answers as before', async () => {
    const url = `/listing/${listing.id}`;
    await laneRead(bob, url);
    // Anonymous, a token nobody issued, another method, a query string, a body, an id the route refuses.
    const anonymous = await socket.anonymous({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(401);
    const stranger = await laneRead({ token: 'not-a-token' }, url);
    expect([stranger.lane, stranger.answer.statusCode]).toEqual([false, 401]);
    const before = t.app.fastLane.served;
    const head = await socket.as(bob, { method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    const withQuery = await laneRead(bob, `${url}?utm=mail`);
    expect([withQuery.lane, withQuery.answer.statusCode]).toEqual([false, 200]);
    const withBody = await socket.as(bob, { method: 'GET', url, headers: { 'content-length': '0' } });
    expect(withBody.statusCode).toBe(200);
    expect((await laneRead(bob, '/listing/0')).answer.statusCode).toBe(400);
    expect((await laneRead(bob, '/listing/12a')).answer.statusCode).toBe(400);
    expect((await laneRead(bob, '/listing/999999')).answer.statusCode).toBe(404);
    expect(t.app.fastLane.served).toBe(before);
  });

  it("the seller's own listing (with its counts) is always Fastify's", async () => {
    const url = `/listing/${listing.id}`;
    await laneRead(alice, url);
    const own = await laneRead(alice, url);
    expect(own.lane).toBe(false);
    expect(own.answer.json()).toMatchObject({ id: listing.id, saveCount: 0 });
  });
});

describe('the fast lane steps aside', () => {
  it('while requests are logged at info: every request keeps its log lines', async () => {
    const lines: string[] = [];
    const t = await createTestApp({
      logger: true,
      logStream: { write: (line: string) => lines.push(line) },
      env: { LOG_LEVEL: 'info' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = overSocket(t);
    try {
      const [alice, bob] = [await createStudent(t), await createStudent(t)];
      const listing = await postListing(t, alice);
      const url = `/listing/${listing.id}`;
      for (let i = 0; i < 3; i += 1)
        expect((await socket.as(bob, { method: 'GET', url })).statusCode).toBe(200);
      expect(t.app.fastLane.served).toBe(0);
      const incoming = lines.filter((l) => l.includes('incoming request') && l.includes(`"${url}"`));
      expect(incoming).toHaveLength(3);
    } finally {
      socket.agent.destroy();
      await t.close();
    }
  });

  it('once the app closes (Fastify answers 503 from then on)', async () => {
    const t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    expect(t.app.fastLane.isOpen).toBe(true);
    await t.close();
    expect(t.app.fastLane.isOpen).toBe(false);
  });
});
