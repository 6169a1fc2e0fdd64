import { afterEach, describe, expect, it } from 'vitest';
import {
  TEST_CAMPUS_DOMAINS,
  TWO_CAMPUSES,
  codeFrom,
  createTestApp,
  dialects,
  type TestApp,
} from '../../test/helper.js';
import { acrossCampuses, currentCampusId, inCampus } from '../db/campus-scope.js';
import { enqueueMail } from '../mail/index.js';
import { JOB_DEFAULTS } from './queue.js';
import { planRound } from './rounds.js';

const FLOOD = 'test.flood';

describe.each(dialects)('the job queue serves campuses in turn (%s)', (dialect) => {
  const opened: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((t) => t.close()));
  });
  async function open() {
    const t = await createTestApp({ dialect, jobWorker: false, env: TWO_CAMPUSES });
    opened.push(t);
    const msu = t.app.ctx.campuses.bySlug('msu')!.id;
    const uw = t.app.ctx.campuses.bySlug('uw')!.id;
    /** Campus of each flood job run, in order. */
    const flooded: number[] = [];
    t.app.ctx.jobs.register(FLOOD, async () => {
      flooded.push(currentCampusId()!);
    });
    return { t, msu, uw, flooded };
  }

  /** `count` due notification-sized jobs of one campus, written in bulk as a surge leaves them. */
  async function flood(t: TestApp, campusId: number, count: number): Promise<void> {
    const now = t.clock.now();
    for (let i = 0; i < count; i += 500) {
      const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
        campus_id: campusId,
        type: FLOOD,
        payload: JSON.stringify({ n: i + j }),
        run_at: now - 60_000,
        max_attempts: JOB_DEFAULTS.maxAttempts,
        priority: 0,
        created_at: now - 60_000,
      }));
      await t.app.ctx.db.kysely.insertInto('jobs').values(rows).execute();
    }
  }

  it('refuses a job with no campus, files one for a named campus, and runs it as work of that campus', async () => {
    const { t, uw } = await open();
    const db = t.app.ctx.db.kysely;
    await expect(t.app.ctx.jobs.enqueue(db, 'test.where', {})).rejects.toThrow(
      /JobQueue\.enqueue\("test\.where"\) with no campus/,
    );
    const seen: Array<{ id: number | undefined; name: string }> = [];
    t.app.ctx.jobs.register('test.where', async () => {
      seen.push({ id: currentCampusId(), name: t.app.ctx.campuses.current().name });
    });
    await t.app.ctx.jobs.enqueue(db, 'test.where', {}, { campusId: uw });
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(seen).toEqual([{ id: uw, name: 'University of Washington' }]);
  });

  it('cancel drops a pending job of its own campus only (any campus when working across them)', async () => {
    const { t, msu, uw } = await open();
    const db = t.app.ctx.db.kysely;
    const ran: string[] = [];
    t.app.ctx.jobs.register<string>('test.keyed', async (p) => {
      ran.push(p);
    });
    await inCampus(uw, () => t.app.ctx.jobs.enqueue(db, 'test.keyed', 'uw', { key: 'k:uw' }));
    await inCampus(msu, () => t.app.ctx.jobs.cancel(db, 'k:uw'));
    await expect(t.app.ctx.jobs.cancel(db, 'k:uw')).rejects.toThrow(/with no campus/);
    await inCampus(uw, () => t.app.ctx.jobs.enqueue(db, 'test.keyed', 'gone', { key: 'k:gone' }));
    // Work across campuses (an operator removing a listing) cancels by key wherever it is.
    await acrossCampuses(() => t.app.ctx.jobs.cancel(db, 'k:gone'));
    expect(await t.app.ctx.jobs.runDue()).toBe(1);
    expect(ran).toEqual(['uw']);
  });

  it("another campus's e-mail goes out in the first round while one campus has thousands due", async () => {
    const { t, msu, uw, flooded } = await open();
    await flood(t, msu, 3000);
    const to = `alex-${Date.now().toString(36)}@uw.edu`;
    await inCampus(uw, () =>
      enqueueMail(t.app.ctx, t.app.ctx.db.kysely, {
        to,
        subject: 'Someone offered $12',
        text: 'Someone offered $12 on your lamp',
        html: '<p>Someone offered $12 on your lamp</p>',
      }),
    );
    // The first round with room for two jobs: one for each campus.
    expect(await t.app.ctx.jobs.runDue({ limit: 2 })).toBe(2);
    expect((await t.mail.waitFor(to)).subject).toBe('Someone offered $12');
    expect(flooded).toEqual([msu]);
  });

  it('two surges share the worker evenly, round after round', async () => {
    const { t, msu, uw, flooded } = await open();
    await flood(t, msu, 2000);
    await flood(t, uw, 1000);
    expect(await t.app.ctx.jobs.runDue({ limit: 200 })).toBe(200);
    expect(flooded.filter((c) => c === msu)).toHaveLength(100);
    expect(flooded.filter((c) => c === uw)).toHaveLength(100);
  });

  it('sign-up codes of every campus go out before any notification, surge or not', async () => {
    const { t, msu } = await open();
    await flood(t, msu, 3000);
    const uwEmail = `casey-${Date.now().toString(36)}@${TEST_CAMPUS_DOMAINS.uw}`;
    const msuEmail = `sam-${Date.now().toString(36)}@${TEST_CAMPUS_DOMAINS.msu}`;
    for (const email of [uwEmail, msuEmail]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/sign-up',
        payload: { firstName: 'Code', lastName: 'First', email, password: 'green-and-white-42' },
      });
      expect(res.statusCode).toBe(201);
    }
    // Two jobs run: the two codes, though thousands of other jobs were due before them.
    expect(await t.app.ctx.jobs.runDue({ limit: 2 })).toBe(2);
    const uwMail = await t.mail.waitFor(uwEmail);
    const msuMail = await t.mail.waitFor(msuEmail);
    expect(String(codeFrom(uwMail))).toMatch(/^\d{6}$/);
    expect(uwMail.subject).toContain('University of Washington Campus Market');
    expect(msuMail.subject).toContain('MSU Campus Market');
  });
});

describe('planRound', () => {
  const lanes = [
    { campusId: 1, top: 0 },
    { campusId: 2, top: 10 },
    { campusId: 3, top: 0 },
    { campusId: 4, top: 10 },
  ];
  it('serves only the highest priority due, every campus that has it, evenly', () => {
    expect(planRound(lanes, undefined, 10, Infinity)).toEqual({
      priority: 10,
      shares: [
        { campusId: 2, take: 5 },
        { campusId: 4, take: 5 },
      ],
    });
  });
  it('starts after the campus served first last time, and shares a small limit', () => {
    const normal = lanes.map((l) => ({ ...l, top: 0 }));
    expect(planRound(normal, 2, 10, 3)?.shares).toEqual([
      { campusId: 3, take: 1 },
      { campusId: 4, take: 1 },
      { campusId: 1, take: 1 },
    ]);
    expect(planRound(normal, 4, 10, Infinity)?.shares.map((s) => s.campusId)).toEqual([1, 2, 3, 4]);
    // More campuses than the round's size: one each.
    const many = Array.from({ length: 12 }, (_, i) => ({ campusId: i + 1, top: 0 }));
    expect(planRound(many, undefined, 10, Infinity)?.shares.every((s) => s.take === 1)).toBe(true);
    expect(planRound([], undefined, 10, Infinity)).toBeUndefined();
  });
});
