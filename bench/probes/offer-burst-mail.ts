/**
 * E-mails a seller receives for a burst of 40 offers from one buyer on one listing (offer throttle
 * in deals/offers.ts, coalescing in notifications/offer-mail.ts). Runs the job queue as its worker
 * would: at once, then again after the coalescing window and after an hour.
 *
 *   npx tsx bench/probes/offer-burst-mail.ts   (TEST_DATABASE_URL=postgres://… for PostgreSQL)
 */
import { createStudent, createTestApp } from '../../server/test/helper.js';
import { createListing } from '../../server/src/chat/testing.js';
import { call } from '../../server/src/deals/testing.js';
import { campusMorning } from '../../server/src/notifications/testing.js';

const burst = Number(process.env.PROBE_OFFERS ?? 40);
const dialect = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const t = await createTestApp({ dialect, jobWorker: false });
t.clock.nowMs = campusMorning(Date.now());
const seller = await createStudent(t, { firstName: 'Maya' });
const buyer = await createStudent(t, { firstName: 'Ben' });
const listingId = await createListing(t, seller.id);
// The sign-up code is the seller's first e-mail; only what follows the offers counts.
const before = t.mail.count(seller.email);
const answers = await Promise.all(
  Array.from({ length: burst }, (_, i) =>
    call(t, buyer, 'POST', `/listings/${listingId}/offers`, { amount: 10 + i }),
  ),
);
const accepted = answers.filter((r) => r.statusCode === 201).length;
for (const advance of [0, 3 * 60_000, 60 * 60_000]) {
  t.clock.advance(advance);
  await t.app.ctx.jobs.runDue();
  await t.app.ctx.jobs.runDue();
}
console.log(
  `${dialect}: ${burst} offers in a burst → ${accepted} accepted, ${burst - accepted} refused; e-mails to the seller: ${t.mail.count(seller.email) - before}`,
);
await t.close();
process.exit(0);
