import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, redisUrl, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { TcpProxy } from '../../test/tcp-proxy.js';
import { call, listingOf, offer } from './testing.js';

/** How long a committed change may take to answer while Redis hangs (a healthy one takes ms). */
const BOUND_MS = 3_000;

/** Resolves with the response, or with 'hung' when it does not come within BOUND_MS. */
async function within<T>(p: Promise<T>): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), BOUND_MS);
  });
  try {
    return await Promise.race([p, bound]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!redisUrl).each(dialects)('deal changes while Redis hangs (%s)', (dialect) => {
  let t: TestApp;
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await TcpProxy.forUrl(redisUrl!).start();
    t = await createTestApp({ dialect, jobWorker: false, env: { REDIS_URL: proxy.urlFor(redisUrl!) } });
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it('answers an accept and a new offer once committed, without waiting for the live publish', async () => {
    const seller = await createStudent(t, { firstName: 'Maya' });
    const buyer = await createStudent(t, { firstName: 'Ben' });
    const listingId = await createListing(t, seller.id);
    const other = await createListing(t, seller.id, 'Bike lock');
    const o = await offer(t, buyer, listingId, 10);

    proxy.freeze();
    const accepted = await within(call(t, seller, 'POST', `/offers/${o.id}/accept`));
    expect(accepted === 'hung' ? 'hung' : accepted.statusCode).toBe(200);
    expect((await listingOf(t, seller, listingId)).status).toBe('RESERVED');
    const made = await within(call(t, buyer, 'POST', `/listings/${other}/offers`, { amount: 5 }));
    expect(made === 'hung' ? 'hung' : made.statusCode).toBe(201);
  });
});
