import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCampus } from '../db/campus-scope.js';
import { openDb, type Db } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { createPgDatabase, dialects } from '../../test/helper.js';
import { MessageWriter } from './writer.js';
import type { NewMessage } from './store.js';

describe.each(dialects)('MessageWriter (%s)', (dialect) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let base: Omit<NewMessage, 'content'>;

  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-writer-'));
    let drop: (() => Promise<void>) | undefined;
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      drop = created.drop;
    }
    db = openDb({ dataDir, databaseUrl });
    await migrateToLatest(db);
    const now = Date.now();
    // Written as campus 1's (the campus a fresh database starts with): a row needs its campus.
    const users = await inCampus(1, () =>
      db.kysely
        .insertInto('users')
        .values(
          [1, 2].map((i) => ({
            email: `w${i}@msu.edu`,
            first_name: 'W',
            last_name: String(i),
            password_hash: 'x',
            verified: 1,
            token_version: 0,
            created_at: now,
          })),
        )
        .returning('id')
        .execute(),
    );
    const [a, b] = users.map((u) => u.id) as [number, number];
    const listing = await inCampus(1, () =>
      db.kysely
        .insertInto('listings')
        .values({
          seller_id: b,
          name: 'Lamp',
          description: 'x',
          category: 'OTHER',
          price_cents: 100,
          image_key: null,
          thumb_key: null,
          is_sold: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    base = {
      campusId: 1,
      roomId: `${a}:${b}`,
      lowUserId: a,
      highUserId: b,
      buyerId: a,
      sellerId: b,
      listingId: listing.id,
      senderId: a,
      url: null,
      sentAt: now,
    };
    if (dialect === 'sqlite') {
      await sql`create trigger refuse_boom before insert on chat_messages when new.content = 'boom' begin select raise(abort, 'refused'); end`.execute(
        db.kysely,
      );
    } else {
      await sql`create function refuse_boom() returns trigger as $$ begin if new.content = 'boom' then raise exception 'refused'; end if; return new; end $$ language plpgsql`.execute(
        db.kysely,
      );
      await sql`create trigger refuse_boom before insert on chat_messages for each row execute function refuse_boom()`.execute(
        db.kysely,
      );
    }
    // On PostgreSQL the writer's batches run as the app's role under row-level security, as in the
    // app: a row filed under another campus than the batch's scope would be refused.
    await db.enforceRowSecurity(false);
    cleanup = async () => {
      await db.close();
      await drop?.();
      await rm(dataDir, { recursive: true, force: true });
    };
  });

  afterAll(async () => {
    await cleanup?.();
  });

  it('stores a burst across rooms in order, counting each room', async () => {
    const writer = new MessageWriter(db.kysely, dialect);
    const other = {
      ...base,
      roomId: `${base.lowUserId}:${base.highUserId + 1000}`,
      highUserId: base.highUserId + 1000,
    };
    // The second room's peer must exist for the foreign key.
    await db.kysely
      .insertInto('users')
      .values({
        id: base.highUserId + 1000,
        email: 'w-other@msu.edu',
        first_name: 'W',
        last_name: 'O',
        password_hash: 'x',
        verified: 1,
        token_version: 0,
        created_at: base.sentAt,
        campus_id: 1,
      })
      .execute();
    const burst = Array.from({ length: 30 }, (_, i) => ({
      ...(i % 3 === 0 ? other : base),
      content: `burst ${i}`,
    }));
    // PostgreSQL: the first write goes alone, the 29 queued behind it share one commit. SQLite: the
    // 30 written in one turn of the event loop share one commit.
    const rows = await Promise.all(burst.map((m) => writer.write(m)));
    expect(rows.map((r) => r.content)).toEqual(burst.map((m) => m.content));
    expect(rows.map((r) => r.room_id)).toEqual(burst.map((m) => m.roomId));
    const ids = rows.map((r) => r.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    const counts = await db.kysely
      .selectFrom('chat_rooms')
      .select(['id', 'message_count'])
      .orderBy('id')
      .execute();
    expect(Object.fromEntries(counts.map((c) => [c.id, Number(c.message_count)]))).toEqual({
      [base.roomId]: 20,
      [other.roomId]: 10,
    });
    await db.kysely.deleteFrom('chat_messages').execute();
    await db.kysely.deleteFrom('chat_rooms').execute();
  });

  it('gives the messages written in one turn one commit (two statements), on SQLite too', async () => {
    let statements = 0;
    const counted = db.kysely.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const writer = new MessageWriter(counted, dialect);
    const contents = Array.from({ length: 10 }, (_, i) => `turn ${i}`);
    try {
      const rows = await Promise.all(contents.map((content) => writer.write({ ...base, content })));
      expect(rows.map((r) => r.content)).toEqual(contents);
      // SQLite: all ten in one batch (room upsert + message insert). PostgreSQL: the first message
      // alone (its one CTE statement), then the other nine as one batch.
      if (dialect === 'sqlite') expect(statements).toBe(2);
      else expect(statements).toBeLessThanOrEqual(4);
    } finally {
      await db.kysely.deleteFrom('chat_messages').execute();
      await db.kysely.deleteFrom('chat_rooms').execute();
    }
  });

  it('stores concurrent messages in order, and a refused one fails alone', async () => {
    const writer = new MessageWriter(db.kysely, dialect);
    const contents = Array.from({ length: 60 }, (_, i) => (i === 30 ? 'boom' : `m${i}`));
    const results = await Promise.allSettled(contents.map((content) => writer.write({ ...base, content })));
    const stored = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(results[30]?.status).toBe('rejected');
    expect(stored).toHaveLength(59);
    expect(stored.map((r) => r.content)).toEqual(contents.filter((c) => c !== 'boom'));
    const ids = stored.map((r) => r.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    const room = await db.kysely.selectFrom('chat_rooms').selectAll().executeTakeFirstOrThrow();
    expect(Number(room.message_count)).toBe(59);
    const count = await db.kysely
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(59);
  });

  it("files each campus's messages under its own campus, one commit for a mixed burst", async () => {
    // A second campus with its own pair of students, as a two-campus deployment has.
    const now = base.sentAt;
    const campus = await db.kysely
      .insertInto('campuses')
      .values({
        slug: 'two',
        name: 'Two',
        email_domains: '["two.edu"]',
        time_zone: 'UTC',
        about: '',
        meetup_spots: '[]',
        prohibited_terms: '[]',
        moderators: '[]',
        hosts: '[]',
        is_default: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const two = Number(campus.id);
    const [c, d] = (await inCampus(two, () =>
      db.kysely
        .insertInto('users')
        .values(
          [1, 2].map((i) => ({
            email: `t${i}@two.edu`,
            first_name: 'T',
            last_name: String(i),
            password_hash: 'x',
            verified: 1,
            token_version: 0,
            created_at: now,
          })),
        )
        .returning('id')
        .execute(),
    ).then((rows) => rows.map((r) => r.id))) as [number, number];
    const theirs: Omit<NewMessage, 'content'> = {
      ...base,
      campusId: two,
      roomId: `${c}:${d}`,
      lowUserId: c,
      highUserId: d,
      buyerId: c,
      sellerId: d,
      senderId: c,
    };
    const writer = new MessageWriter(db.kysely, dialect);
    const burst = Array.from({ length: 12 }, (_, i) => ({
      ...(i % 2 === 0 ? base : theirs),
      content: `mixed ${i}`,
    }));
    // Whichever campus's SEND starts the drain, the other's messages are not written as its work.
    const rows = await inCampus(1, () => Promise.all(burst.map((m) => writer.write(m))));
    expect(rows.map((r) => r.content)).toEqual(burst.map((m) => m.content));
    const stored = await db.kysely
      .selectFrom('chat_messages')
      .select(['content', 'campus_id'])
      .where('content', 'like', 'mixed %')
      .orderBy('id')
      .execute();
    expect(stored.map((r) => [r.content, Number(r.campus_id)]).sort()).toEqual(
      burst.map((m) => [m.content, m.campusId]).sort(),
    );
    const rooms = await db.kysely
      .selectFrom('chat_rooms')
      .select(['id', 'campus_id', 'message_count'])
      .execute();
    expect(
      Object.fromEntries(rooms.map((r) => [r.id, [Number(r.campus_id), Number(r.message_count)]])),
    ).toMatchObject({
      [base.roomId]: [1, expect.any(Number)],
      [theirs.roomId]: [two, 6],
    });
  });
});
