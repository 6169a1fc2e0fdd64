// Starts what the browser journeys run against: a real SMTP server that captures mail (readable
// over HTTP by the tests, as a student would read their inbox) and the real app serving the built
// web app on a fresh SQLite database. One per Playwright worker (E2E_SERVER, support/ports.ts).
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { acrossCampuses } from '../../server/src/db/campus-scope.js';
import { filePeriodJobs } from '../../server/src/listings/freshness-jobs.js';
// The listing facts (declaration merging): this server announces one for the time it moves.
import '../../server/src/listings/events.js';
import { DEFAULT_LIMITS, type LimitName, type LimitPolicy } from '../../server/src/http/rate-limit.js';
import type { ListingsModule } from '../../server/src/listings/index.js';
import { TEST_CAMPUSES } from '../../server/test/campuses.js';
import { MailCapture } from '../../server/test/mail-capture.js';
import { startTestIdp } from '../../server/test/oidc-provider.js';
import { insertVerifiedStudent } from '../../server/test/students.js';
import { APP_PORT, MAIL_PORT } from './ports.js';

const mail = new MailCapture();
const smtpUrl = await mail.start();
const dataDir = mkdtempSync(path.join(tmpdir(), 'cm-e2e-'));
// University sign-in (features.md §G): Lakeshore State signs its students in through a real OpenID
// Connect provider (its own login and consent pages), served on 127.0.0.1 (its `hosts`), so the
// other journeys' campuses, on localhost, look as before. Anyone typing a login name there is a
// student of lakeshore.edu (university-sign-in.spec.ts).
const lakeshoreSite = `http://127.0.0.1:${APP_PORT}`;
const idp = await startTestIdp({
  redirectUris: [`${lakeshoreSite}/auth/sso/lakeshore/callback`],
  accountFor: (login) => ({
    email: `${login.toLowerCase()}@lakeshore.edu`,
    email_verified: true,
    given_name: login.charAt(0).toUpperCase() + login.slice(1),
    family_name: 'Laker',
    eduperson_scoped_affiliation: [login.startsWith('alum') ? 'alum@lakeshore.edu' : 'student@lakeshore.edu'],
  }),
});
const LAKESHORE = {
  slug: 'lakeshore',
  name: 'Lakeshore State',
  emailDomains: ['lakeshore.edu'],
  timeZone: 'America/Chicago',
  hosts: ['127.0.0.1'],
  sso: { type: 'oidc', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
};
const config = loadConfig({
  NODE_ENV: 'test',
  PORT: String(APP_PORT),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SMTP_URL: smtpUrl,
  PUBLIC_URL: `http://localhost:${APP_PORT}`,
  // Two campuses (features.md §E): MSU, the default, where every journey's students are unless
  // they say otherwise, and the University of Washington (uw.edu), whose students must never see
  // MSU's (campuses.spec.ts). The safety journey signs moderator.e2e@msu.edu up as MSU's moderator.
  // UW is in its move-out season all along (features.md §H): its dashboard leads with the
  // moving-out shelf (moving-out.spec.ts); MSU has no season, so its dashboard is as before.
  CAMPUSES: JSON.stringify([
    ...TEST_CAMPUSES.map((c) =>
      c.slug === 'msu'
        ? { ...c, moderators: ['moderator.e2e@msu.edu'] }
        : { ...c, moveOutSeason: { from: '2026-01-01', to: '2035-12-31' } },
    ),
    LAKESHORE,
  ]),
  LOG_LEVEL: 'warn',
});
// Every journey's students come from 127.0.0.1, so the per-IP limits (20 sign-ups an hour…) would
// trip once the suite signs up more students than one real network would; per-account limits stay.
const perIpLimits: Partial<Record<LimitName, LimitPolicy>> = Object.fromEntries(
  Object.keys(DEFAULT_LIMITS)
    .filter((name) => name.endsWith(':ip'))
    .map((name) => [name, { points: 100_000, durationSeconds: 60 }]),
);
// Searches go through the search worker thread, as on a real server (NODE_ENV=test alone would
// keep the index in-process).
// The server's clock is the real one plus an offset a journey may move (POST /e2e/clock): timers
// (a claim window, a move-out price step days ahead) then come due at once, with no waiting.
let clockOffsetMs = 0;
const app = await buildApp(config, {
  rateLimits: perIpLimits,
  searchWorker: true,
  clock: () => Date.now() + clockOffsetMs,
});
// Test server only: moves the server's clock forward by `advanceMs`, or back to real time with
// `reset: true` (a journey that moved it puts it back, so later journeys see real time), then runs
// what fell due before answering.
app.post('/e2e/clock', async (request) => {
  const body = (request.body ?? {}) as { advanceMs?: number; reset?: boolean };
  if (body.reset) clockOffsetMs = 0;
  else if (typeof body.advanceMs === 'number' && body.advanceMs > 0) clockOffsetMs += body.advanceMs;
  await app.ctx.jobs.runDue();
  return { now: new Date(Date.now() + clockOffsetMs).toISOString() };
});
// Test server only (never in the app): journeys that are not about signing up start from a
// verified account made through the accounts store, then log in through the form. The sign-up,
// e-mailed code and verify screens have their own journey (accounts.spec.ts).
app.post('/e2e/students', async (request, reply) => {
  const student = request.body as { firstName: string; lastName: string; email: string; password: string };
  const { id } = await insertVerifiedStudent(app.ctx, student);
  return reply.code(201).send({ id });
});
// Test server only: time for one listing (features.md §H freshness) without waiting weeks. Its
// period ends `inDays` from now (negative: already ended); the period's jobs are filed as a posting
// or renewal files them, so the expiry notice and the end run through the real job worker.
app.post('/e2e/listings/:id/expires', async (request, reply) => {
  const id = Number((request.params as { id: string }).id);
  const { inDays } = request.body as { inDays: number };
  const expiresAt = Date.now() + inDays * 86_400_000;
  const row = await acrossCampuses(() =>
    app.ctx.domainEvents.transaction(async (trx) => {
      const updated = await trx
        .updateTable('listings')
        .set({ expires_at: expiresAt, updated_at: Math.min(Date.now(), expiresAt) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) return undefined;
      await filePeriodJobs(app.ctx, trx, updated);
      await app.ctx.domainEvents.announce(trx, 'listing.changed', { row: updated });
      return updated;
    }),
  );
  app.ctx.jobs.kick();
  return row ? reply.code(204).send() : reply.code(404).send({ message: 'no such listing' });
});
// Test server only: a deal confirmed by hand-off code, as deals/handoff.ts records it, for the
// price guide's journey (deals.spec.ts walks through a real hand-off).
app.post('/e2e/deals', async (request, reply) => {
  const { listingId, buyerId, priceCents } = request.body as {
    listingId: number;
    buyerId: number;
    priceCents: number;
  };
  await acrossCampuses(async () => {
    const listing = await app.ctx.db.kysely
      .selectFrom('listings')
      .selectAll()
      .where('id', '=', listingId)
      .executeTakeFirstOrThrow();
    await app.ctx.db.kysely
      .insertInto('deals')
      .values({
        campus_id: listing.campus_id,
        listing_id: listing.id,
        listing_name: listing.name,
        seller_id: listing.seller_id,
        buyer_id: buyerId,
        price_cents: priceCents,
        completed_at: Date.now(),
        offer_id: null,
      })
      .execute();
  });
  return reply.code(201).send({});
});
// A production server builds its search index while it starts (listings/index.ts; NODE_ENV=test
// skips that): so does this one, before it answers, or the first journey to search pays for
// starting the worker thread and building the index inside its 10-second wait.
await app.ready();
const listings: ListingsModule = app.listings;
await listings.search.warm();
await app.listen({ port: APP_PORT, host: '127.0.0.1' });

const mailReader = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const to = (url.searchParams.get('to') ?? '').toLowerCase();
  const messages = mail.messages.filter((m) => !to || m.to.includes(to));
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(messages));
});
mailReader.listen(MAIL_PORT, '127.0.0.1');

const stop = async () => {
  mailReader.close();
  await app.close();
  await mail.stop();
  await idp.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
