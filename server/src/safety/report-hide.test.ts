import type { Listing } from '@campus/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudent, createTestApp, dialects, type Student, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';
import { call } from './testing.js';

/** "3 reports hide a listing" happens in the third report's own transaction. */
describe.each(dialects)('three reports hide a listing, with the report (%s)', (dialect) => {
  let t: TestApp;
  let reporters: Student[];
  let seller: Student;

  beforeAll(async () => {
    t = await createTestApp({ dialect, jobWorker: false });
    seller = await createStudent(t, { firstName: 'Sam' });
    reporters = [await createStudent(t), await createStudent(t), await createStudent(t)];
  });
  afterAll(() => t.close());

  const report = (s: Student, id: number) =>
    call(t, s, 'POST', '/reports', { targetType: 'LISTING', targetId: id, reason: 'SCAM' });
  const inBrowse = async (id: number) =>
    ((await call(t, seller, 'GET', '/listings/recent')).json() as Listing[]).some((l) => l.id === id);

  /** Makes hiding a listing fail in the database, as a dropped connection or a full disk would. */
  async function failHiding(on: boolean): Promise<void> {
    const db = t.app.ctx.db.kysely;
    if (dialect === 'sqlite') {
      await sql
        .raw(
          on
            ? `create trigger fail_hide before update of moderation on listings when new.moderation = 'REPORTED'
               begin select raise(abort, 'hide failed'); end`
            : 'drop trigger fail_hide',
        )
        .execute(db);
      return;
    }
    if (on) {
      await sql
        .raw(
          `create function fail_hide() returns trigger language plpgsql as $$
           begin raise exception 'hide failed'; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger fail_hide before update of moderation on listings for each row
           when (new.moderation = 'REPORTED') execute function fail_hide()`,
        )
        .execute(db);
    } else {
      await sql.raw('drop trigger fail_hide on listings').execute(db);
      await sql.raw('drop function fail_hide()').execute(db);
    }
  }

  it('a failure hiding the listing takes the third report back with it, so retrying hides it', async () => {
    const id = await createListing(t, seller.id, 'Suspicious phone');
    expect((await report(reporters[0]!, id)).statusCode).toBe(201);
    expect((await report(reporters[1]!, id)).statusCode).toBe(201);
    await failHiding(true);
    try {
      expect((await report(reporters[2]!, id)).statusCode).toBe(500);
    } finally {
      await failHiding(false);
    }
    // Neither the report nor the hiding happened: the listing shows, and the report can be made again.
    expect(await inBrowse(id)).toBe(true);
    const again = await report(reporters[2]!, id);
    expect(again.statusCode, again.body).toBe(201);
    expect(await inBrowse(id)).toBe(false);
  });

  it('three reports at the same moment still hide it', async () => {
    const id = await createListing(t, seller.id, 'Another phone');
    const answers = await Promise.all(reporters.map((r) => report(r, id)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(await inBrowse(id)).toBe(false);
  });
});
