import {
  parseRoomId,
  type ModReportGroup,
  type ReportOutcome,
  type ReportReason,
  type ReportStatus,
  type ReportTargetType,
} from '@campus/contract';
import type { AppContext, Principal } from '../context.js';
import { photoUrl } from '../media/index.js';
import { campusRef, reachOf, readIn } from './reach.js';

type Content = ModReportGroup['content'];

type Page = { groups: ModReportGroup[]; nextBefore: number | undefined };

/**
 * GET /mod/reports: reports grouped by target, groups ordered by their newest report (newest
 * first), keyset-paged by that report's id. Each group carries the reported content as it is now
 * and its campus: the moderator's own campus, or every campus for an operator (reach.ts). A
 * target's reports are all of the target's campus, so a group never mixes campuses.
 */
export function reportQueue(
  ctx: AppContext,
  moderator: Principal,
  status: ReportStatus,
  limit: number,
  before: number | undefined,
): Promise<Page> {
  const reach = reachOf(ctx, moderator);
  return readIn(reach, () =>
    readQueue(ctx, reach === 'all' ? undefined : reach.campusId, status, limit, before),
  );
}

async function readQueue(
  ctx: AppContext,
  campusId: number | undefined,
  status: ReportStatus,
  limit: number,
  before: number | undefined,
): Promise<Page> {
  const db = ctx.db.kysely;
  let targets = db
    .selectFrom('reports')
    .select(['target_type', 'target_id', 'campus_id', (eb) => eb.fn.max('id').as('latest')])
    .where('status', '=', status)
    .groupBy(['target_type', 'target_id', 'campus_id'])
    .orderBy('latest', 'desc')
    .limit(limit + 1);
  if (campusId !== undefined) targets = targets.where('campus_id', '=', campusId);
  if (before !== undefined) targets = targets.having((eb) => eb.fn.max('id'), '<', before);
  const found = await targets.execute();
  const page = found.slice(0, limit);
  if (page.length === 0) return { groups: [], nextBefore: undefined };

  const reports = await db
    .selectFrom('reports')
    .innerJoin('users', 'users.id', 'reports.reporter_id')
    .select([
      'reports.id',
      'reports.target_type',
      'reports.target_id',
      'reports.reason',
      'reports.details',
      'reports.status',
      'reports.outcome',
      'reports.created_at',
      'users.id as reporter_id',
      'users.first_name',
      'users.last_name',
    ])
    .where('reports.status', '=', status)
    .where((eb) =>
      eb.or(
        page.map((t) =>
          eb.and([
            eb('reports.campus_id', '=', t.campus_id),
            eb('reports.target_type', '=', t.target_type),
            eb('reports.target_id', '=', t.target_id),
          ]),
        ),
      ),
    )
    .orderBy('reports.id', 'desc')
    .execute();

  const groups: ModReportGroup[] = [];
  for (const t of page) {
    const type = t.target_type as ReportTargetType;
    const mine = reports.filter((r) => r.target_type === t.target_type && r.target_id === t.target_id);
    groups.push({
      campus: campusRef(ctx, t.campus_id),
      targetType: type,
      targetId: t.target_id,
      content: await contentOf(ctx, type, t.target_id),
      reports: mine.map((r) => ({
        id: r.id,
        reporter: { id: r.reporter_id, firstName: r.first_name, lastName: r.last_name },
        reason: r.reason as ReportReason,
        details: r.details,
        status: r.status as ReportStatus,
        outcome: (r.outcome as ReportOutcome | null) ?? null,
        createdAt: new Date(Number(r.created_at)).toISOString(),
      })),
      latestAt: new Date(Number(mine[0]?.created_at ?? 0)).toISOString(),
    });
  }
  const last = page[page.length - 1];
  return { groups, nextBefore: found.length > limit && last ? Number(last.latest) : undefined };
}

const gone = (title: string): Content => ({
  title,
  body: '',
  owner: null,
  state: 'GONE',
  imageUrl: null,
  gone: true,
});

async function contentOf(ctx: AppContext, type: ReportTargetType, id: number): Promise<Content> {
  const db = ctx.db.kysely;
  if (type === 'LISTING') {
    const l = await db
      .selectFrom('listings')
      .innerJoin('users', 'users.id', 'listings.seller_id')
      .select([
        'listings.name',
        'listings.description',
        'listings.moderation',
        'listings.thumb_key',
        'listings.campus_id',
        'users.id as owner_id',
        'users.first_name',
        'users.last_name',
      ])
      .where('listings.id', '=', id)
      .executeTakeFirst();
    if (!l) return gone('Deleted listing');
    return {
      title: l.name,
      body: l.description,
      owner: { id: l.owner_id, firstName: l.first_name, lastName: l.last_name },
      state: l.moderation ?? 'VISIBLE',
      imageUrl: photoUrl(ctx.photoStorage, Number(l.campus_id), l.thumb_key),
      gone: false,
    };
  }
  if (type === 'USER') {
    const u = await db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'suspended_at', 'suspended_until', 'deleted_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!u || u.deleted_at !== null) return gone('Deleted student');
    const suspended =
      u.suspended_at !== null && (u.suspended_until === null || Number(u.suspended_until) > ctx.clock());
    return {
      title: `${u.first_name} ${u.last_name}`,
      body: '',
      owner: { id: u.id, firstName: u.first_name, lastName: u.last_name },
      state: suspended ? 'SUSPENDED' : 'ACTIVE',
      imageUrl: null,
      gone: false,
    };
  }
  const m = await db
    .selectFrom('chat_messages')
    .innerJoin('users', 'users.id', 'chat_messages.sender_id')
    .select([
      'chat_messages.content',
      'chat_messages.room_id',
      'users.id as owner_id',
      'users.first_name',
      'users.last_name',
    ])
    .where('chat_messages.id', '=', id)
    .executeTakeFirst();
  if (!m || !parseRoomId(m.room_id)) return gone('Deleted message');
  return {
    title: `Message from ${m.first_name} ${m.last_name}`,
    body: m.content,
    owner: { id: m.owner_id, firstName: m.first_name, lastName: m.last_name },
    state: 'SENT',
    imageUrl: null,
    gone: false,
  };
}
