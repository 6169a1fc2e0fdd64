import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, type Student, type TestApp } from '../../test/helper.js';

/** Multipart is parsed on the upload routes only (http/uploads.ts); elsewhere it is refused clearly. */
describe('multipart outside the upload routes', () => {
  let t: TestApp;
  let student: Student;
  beforeAll(async () => {
    t = await createTestApp();
    student = await createStudent(t);
  });
  afterAll(async () => t.close());

  it('answers 415 with a message a person can act on, never 500', async () => {
    const boundary = 'cm-test-boundary';
    const res = await t.app.inject({
      method: 'POST',
      url: '/searches',
      headers: {
        authorization: `Bearer ${student.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="bio"\r\n\r\nhello\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(415);
    const body = res.json() as { message: string; code: string };
    expect(body.message.length).toBeGreaterThan(10);
    expect(body.code).toBeTruthy();
    // What the student (or a client developer) reads.
    expect(body.message).toMatch(/content|type|multipart|upload/i);
  });
});
