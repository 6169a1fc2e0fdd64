import { CHAT_LIMIT_MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStudent, createStudent, createTestApp, type Student, type TestApp } from '../../test/helper.js';
import { postListing } from '../listings/testing.js';

/** Bodies a broken or hostile client sends as multipart/form-data. */
const MALFORMED: Array<[string, string, string]> = [
  [
    'no boundary',
    'multipart/form-data',
    '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nLamp\r\n--x--\r\n',
  ],
  [
    'a truncated part',
    'multipart/form-data; boundary=x',
    '--x\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff',
  ],
  ['a part cut off in its headers', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-da'],
  ['a part without headers', 'multipart/form-data; boundary=x', '--x\r\n\r\nLamp\r\n--x--\r\n'],
  ['no parts at all', 'multipart/form-data; boundary=x', 'hello world'],
];

interface Operation {
  requestBody?: { content?: Record<string, unknown> };
}

describe('malformed multipart bodies answer 400 with a message on every multipart route', () => {
  let t: TestApp;
  let alice: Student;
  let routes: Array<{ method: string; url: string }>;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await createStudent(t);
    const listing = await postListing(t, alice);
    const spec = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    // Every route whose documented body is multipart/form-data, with its path filled in.
    routes = Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.requestBody?.content?.['multipart/form-data'] !== undefined)
        .map(([method, _op]) => ({
          method: method.toUpperCase(),
          url: path.replace('{id}', String(listing.id)).replace(/\{\w+\}/g, '1'),
        })),
    );
  });
  afterAll(() => t.close());

  it('finds the upload routes', () => {
    expect(routes.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/listing', '/listing/new', '/api/chats/upload']),
    );
  });

  it.each(MALFORMED)('%s', async (_what, contentType, payload) => {
    for (const route of routes) {
      const res = await asStudent(t, alice, {
        method: route.method as 'POST',
        url: route.url,
        headers: { 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(400);
      const body = res.json() as { message: string; code: string };
      expect(body.code).toBe('VALIDATION');
      expect(body.message.length).toBeGreaterThan(10);
    }
  });

  it('names the unreadable upload for a body the parser cannot read', async () => {
    const res = await asStudent(t, alice, {
      method: 'POST',
      url: '/api/chats/upload',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'anything',
    });
    expect(res.json()).toEqual({ message: CHAT_LIMIT_MESSAGES.malformedMultipart, code: 'VALIDATION' });
  });
});
