import { MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, createTestApp, type TestApp } from '../../test/helper.js';
import { makeJpeg, multipart, validFields } from '../listings/testing.js';

describe('upload budget per student (listings and chat photos share it)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: { 'upload:account': { points: 2, durationSeconds: 3600 } } });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once the budget is spent, for that student only', async () => {
    const a = await createStudent(t);
    const b = await createStudent(t);
    const post = (s: typeof a) =>
      asStudent(t, s, { method: 'POST', url: '/listing', ...multipart(validFields()) });
    expect((await post(a)).statusCode).toBe(201);
    const photo = multipart({}, [{ data: await makeJpeg(64, 48) }]);
    expect((await asStudent(t, a, { method: 'POST', url: '/api/chats/upload', ...photo })).statusCode).toBe(
      200,
    );
    const limited = await post(a);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(MESSAGES.rateLimited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(b)).statusCode).toBe(201);
  });
});
