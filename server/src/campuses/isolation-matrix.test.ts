import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../test/helper.js';
import { CASES, CASE_FILES, DUPLICATE_KEYS } from '../../test/isolation/cases.js';
import { runById, runList, runOwn } from '../../test/isolation/matrix.js';
import { buildWorld, call, type World } from '../../test/isolation/world.js';
import { registeredRoutes } from '../http/openapi.js';

/**
 * Every route × the same campus / another campus, on both databases (features.md §E): "another
 * campus's id answers 404, exactly like an unknown id", and lists never show another campus's
 * rows. The routes come from the app itself — every route Fastify registered, as the OpenAPI
 * generator's onRoute hook saw it (http/openapi.ts registers it before any route, so hidden
 * routes such as /uploads/* are in it too) — and each needs an entry in the case table
 * (server/test/isolation/cases-*.ts), so a new route cannot skip the question.
 */
describe.each(dialects)('campus isolation matrix on %s', (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld(dialect);
  }, 180_000);
  afterAll(() => w?.close());

  const routeKeys = () => [...new Set(registeredRoutes(w.t.app).map((r) => `${r.method} ${r.url}`))];

  it('has an isolation case for every route of the app', () => {
    const missing = routeKeys().filter((key) => !(key in CASES));
    expect(missing.map((key) => `route ${key} has no isolation case: add one in ${CASE_FILES}`)).toEqual([]);
    expect(DUPLICATE_KEYS, 'routes with a case in two files').toEqual([]);
    const routes = new Set(routeKeys());
    const stale = Object.entries(CASES)
      .filter(([key, c]) => !routes.has(key) && !(c.kind === 'reason' && c.optional))
      .map(([key]) => key);
    expect(stale, 'cases of routes the app no longer has: remove them').toEqual([]);
  });

  it('reads the same routes as the OpenAPI document lists', async () => {
    const spec = (await w.t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const routes = new Set(routeKeys());
    expect(documented.filter((key) => !routes.has(key))).toEqual([]);
  });

  it("matches saved searches and wanted posts only with their own campus's listings", async () => {
    const { t, msu, uw } = w;
    type Page = { notifications: { type: string; body: string; title: string }[] };
    const matches = async (who: typeof msu.buyer, marker: string) => {
      const page = (await call(t, who, { method: 'GET', url: '/notifications?limit=50' })).json() as Page;
      return page.notifications.filter(
        (n) =>
          ['SAVED_SEARCH_MATCH', 'WANTED_MATCH'].includes(n.type) && `${n.title} ${n.body}`.includes(marker),
      );
    };
    // The buyer was told of the owner's lamp, and of nothing on the other campus; and the reverse.
    expect((await matches(msu.buyer, w.marker)).length).toBeGreaterThan(0);
    expect(await matches(msu.buyer, w.uwMarker)).toEqual([]);
    expect(await matches(uw.student, w.marker)).toEqual([]);
    // The seller's count of wanted posts the lamp matched: the buyer's, not the uw student's.
    const lamp = await call(t, msu.owner, { method: 'GET', url: `/listing/${w.listing.id}` });
    expect(lamp.json()).toMatchObject({ wantedCount: 1 });
  });

  // Lists first, then calls on the caller's own account, then calls naming msu things: a refusal
  // that fails (another campus's write let through) then cannot make a list case fail as well.
  const entries = Object.entries(CASES);
  for (const [key, c] of entries) {
    if (c.kind === 'list') it(`${key}: the list never shows another campus's rows`, () => runList(w, key, c));
  }
  for (const [key, c] of entries) {
    if (c.kind === 'own') it(`${key}: the caller's own, on either campus`, () => runOwn(w, key, c));
  }
  for (const [key, c] of entries) {
    if (c.kind !== 'byId') continue;
    for (const scenario of c.scenarios) {
      it(`${key}: ${scenario.name} of another campus answers like an unknown id`, () =>
        runById(w, key, scenario));
    }
  }
});
