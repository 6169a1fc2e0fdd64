import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import {
  ERROR_CODES,
  MESSAGES,
  SAFETY_ERROR_CODES,
  SELLING_MESSAGES,
  dailyListingsMessage,
  type Listing,
} from '@campus/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { makeJpeg, multipart, postListing, validFields } from './testing.js';

/**
 * What one upload may make the server hold: one upload per student at a time, photos streamed to
 * disk, and a form that will be refused refused before its photos are read.
 */
describe.each(dialects)('upload bounds (%s)', (dialect) => {
  let t: TestApp;
  let jpeg: Buffer;
  const incoming = () => path.join(t.dataDir, 'uploads-incoming');
  const received = async () => (await readdir(incoming()).catch(() => [] as string[])).length;

  /**
   * Starts an upload whose body arrives in two steps: `head` now, the rest when `finish` is called
   * (or never). The answer may come before the body ends.
   */
  function slowUpload(
    s: Student,
    url: string,
    body: { payload: Buffer; headers: Record<string, string> },
    cut: number,
  ) {
    const stream = new PassThrough();
    stream.write(body.payload.subarray(0, cut));
    const response = asStudent(t, s, { method: 'POST', url, headers: body.headers, payload: stream });
    return {
      response,
      finish: () => stream.end(body.payload.subarray(cut)),
    };
  }

  /** The answer, which must come while the body is still open (a server reading it all would hang). */
  async function answeredEarly(response: Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer before the body ended')), 15_000);
    });
    try {
      return await Promise.race([response, hung]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Where a form's first photo part starts (after its text fields and the part's headers). */
  const photoStart = (body: Buffer, photo: Buffer) => body.indexOf(photo.subarray(0, 64));

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { DAILY_LISTINGS_MAX: '2' } });
    jpeg = await makeJpeg(400, 300);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a second upload of the same student while the first is arriving is 429; other students go on', async () => {
    const seller = await createStudent(t);
    const other = await createStudent(t);
    const form = multipart(validFields({ name: 'Two photos' }), [{ data: jpeg }, { data: jpeg }]);
    const first = slowUpload(seller, '/listing', form, photoStart(form.payload, jpeg) + 100);
    // The first photo has started arriving: the upload is in progress.
    while ((await received()) === 0) await new Promise((r) => setImmediate(r));

    const second = await asStudent(t, seller, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    expect(second.statusCode).toBe(429);
    expect(second.json()).toEqual({ message: MESSAGES.uploadInProgress, code: ERROR_CODES.rateLimited });
    expect(second.headers['retry-after']).toBeDefined();
    const third = await asStudent(t, seller, {
      method: 'POST',
      url: '/listing',
      ...multipart(validFields({ name: 'Third' }), [{ data: jpeg }]),
    });
    expect(third.statusCode).toBe(429);

    const others = await asStudent(t, other, {
      method: 'POST',
      url: '/listing',
      ...multipart(validFields({ name: 'Not held up' }), [{ data: jpeg }]),
    });
    expect(others.statusCode).toBe(201);

    first.finish();
    expect((await first.response).statusCode).toBe(201);
    // Done: the next upload is welcome, and nothing received stays on disk.
    const next = await asStudent(t, seller, {
      method: 'POST',
      url: '/users/me/avatar',
      ...multipart({}, [{ data: jpeg }]),
    });
    expect(next.statusCode).toBe(200);
    expect(await received()).toBe(0);
  });

  it('a form that will be refused is answered before its photos are read', async () => {
    const seller = await createStudent(t);
    const stranger = await createStudent(t);
    const cases: Array<{
      who: Student;
      url: string;
      fields: Record<string, string>;
      photo: Buffer;
      status: number;
      message: string;
    }> = [
      // Missing price: the fields are checked when the first photo starts.
      {
        who: seller,
        url: '/listing',
        fields: validFields({ price: '' }),
        photo: jpeg,
        status: 400,
        message: MESSAGES.listingRequiredFields,
      },
      // Not a JPEG: told by the first bytes.
      {
        who: seller,
        url: '/listing',
        fields: validFields(),
        photo: Buffer.concat([Buffer.from('GIF89a'), jpeg]),
        status: 400,
        message: MESSAGES.imageNotJpeg,
      },
    ];
    for (const c of cases) {
      const form = multipart(c.fields, [{ data: c.photo }]);
      const upload = slowUpload(c.who, c.url, form, photoStart(form.payload, c.photo) + 16);
      try {
        const res = await answeredEarly(upload.response);
        expect(res.statusCode, c.message).toBe(c.status);
        expect(res.json().message).toBe(c.message);
      } finally {
        upload.finish();
      }
    }

    // Someone else's listing, or a full one: refused before the photo is read.
    const listing: Listing = await postListing(t, seller, validFields({ name: 'Mine' }), jpeg);
    const photo = multipart({}, [{ data: jpeg }]);
    const foreign = slowUpload(
      stranger,
      `/listing/${listing.id}/photos`,
      photo,
      photoStart(photo.payload, jpeg) + 16,
    );
    try {
      const res = await answeredEarly(foreign.response);
      expect(res.statusCode).toBe(403);
    } finally {
      foreign.finish();
    }

    // The daily cap (2 here): the third listing of the day.
    const busy = await createStudent(t);
    await postListing(t, busy, validFields({ name: 'First today' }));
    await postListing(t, busy, validFields({ name: 'Second today' }));
    const over = multipart(validFields({ name: 'Third today' }), [{ data: jpeg }]);
    const capped = slowUpload(busy, '/listing', over, photoStart(over.payload, jpeg) + 16);
    try {
      const res = await answeredEarly(capped.response);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ message: dailyListingsMessage(2), code: SAFETY_ERROR_CODES.dailyLimit });
    } finally {
      capped.finish();
    }
    expect(await received()).toBe(0);
  });

  it('fields sent after the photos are still checked; changing a checked field after a photo is 400', async () => {
    const seller = await createStudent(t);
    // Photos first, then the fields: checked at the end (the photo waited on disk).
    const boundary = '----photosfirst';
    const part = (headers: string, body: Buffer | string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`),
        Buffer.from(body),
        Buffer.from('\r\n'),
      ]);
    const photoPart = part(
      'Content-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg',
      jpeg,
    );
    const fieldParts = (fields: Record<string, string>) =>
      Object.entries(fields).map(([k, v]) => part(`Content-Disposition: form-data; name="${k}"`, v));
    const send = (parts: Buffer[], who: Student = seller) =>
      asStudent(t, who, {
        method: 'POST',
        url: '/listing',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
      });
    const photosFirst = await send([photoPart, ...fieldParts(validFields({ name: 'Photos first' }))]);
    expect(photosFirst.statusCode).toBe(201);
    const missing = await send([photoPart, ...fieldParts(validFields({ price: '' }))]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(MESSAGES.listingRequiredFields);
    // The usual order with an extra field after the photo is fine; a checked one changing is not.
    const extraAfter = await send([
      ...fieldParts(validFields({ name: 'Condition last' })),
      photoPart,
      ...fieldParts({ condition: 'GOOD' }),
    ]);
    expect(extraAfter.statusCode).toBe(201);
    const changed = await send(
      [...fieldParts(validFields()), photoPart, ...fieldParts({ name: 'Something else' })],
      await createStudent(t),
    );
    expect(changed.statusCode).toBe(400);
    expect(changed.json().message).toBe(SELLING_MESSAGES.fieldsBeforePhotos);
    expect(await received()).toBe(0);
  });
});
