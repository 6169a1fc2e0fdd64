import type { Listing, ReservedFor } from '@campus/contract';
import type { AppContext, Principal } from '../context.js';

/**
 * Per-caller fields on shared listing answers (features.md §B): `savedByMe` for everyone,
 * `saveCount` and `wantedCount` for the seller. The hot cache keeps one rendering for every
 * caller (savedByMe false, no seller fields); a caller who saved nothing on the page and sells
 * nothing on it gets those bytes untouched, anyone else a copy with the flags spliced in — the
 * JSON is never parsed again.
 */
const TAIL = '"savedByMe":false}';

export class RenderedListings {
  /** The answer for a caller with nothing to personalise. */
  readonly plain: string;
  readonly ids: number[];
  readonly sellers: number[];
  /** Ids of RESERVED listings: `reservedFor` is added for their seller and reserved buyer. */
  readonly reserved: number[];
  /** Each listing's end of period (epoch ms; null before the upgrade's start-up pass). */
  private readonly expires: (number | null)[];
  /** Each listing's JSON up to (not including) the savedByMe value. */
  private readonly heads: string[];
  private plainUtf8: Buffer | undefined;

  constructor(
    listings: readonly Listing[],
    private readonly array: boolean,
  ) {
    this.ids = listings.map((l) => l.id);
    this.sellers = listings.map((l) => l.seller.id);
    this.reserved = listings.filter((l) => l.status === 'RESERVED').map((l) => l.id);
    this.expires = listings.map((l) => (l.expiresAt === null ? null : Date.parse(l.expiresAt)));
    this.heads = listings.map((l) => {
      const json = JSON.stringify(l);
      if (!json.endsWith(TAIL)) throw new Error('savedByMe must be the last key of a listing');
      return json.slice(0, json.length - 'false}'.length);
    });
    this.plain = array ? JSON.stringify(listings) : JSON.stringify(listings[0]);
  }

  /**
   * `plain` as UTF-8, encoded once per rendering: the hot cache hands the same bytes to every caller
   * with nothing to personalise, and node:http writes a Buffer as is, where a string body is
   * measured (content-length) and encoded again on every request.
   */
  get plainBytes(): Buffer {
    this.plainUtf8 ??= Buffer.from(this.plain, 'utf8');
    return this.plainUtf8;
  }

  /** The body for one caller. */
  forViewer(
    saved: ReadonlySet<number>,
    userId: number,
    counts: Map<number, SellerCounts>,
    reservedFor: ReadonlyMap<number, ReservedFor> = new Map(),
    now?: number,
  ): string {
    const items = this.heads.map((head, i) => {
      const id = this.ids[i] as number;
      let out = head + (saved.has(id) ? 'true' : 'false');
      const c = this.sellers[i] === userId ? counts.get(id) : undefined;
      if (c) out += `,"saveCount":${c.saveCount},"wantedCount":${c.wantedCount}`;
      // The seller sees EXPIRED (features.md §H) at the exact moment, whatever the cache holds.
      if (c && now !== undefined) out += `,"expired":${isPast(this.expires[i] ?? null, now)}`;
      const r = reservedFor.get(id);
      if (r) out += `,"reservedFor":${JSON.stringify(r)}`;
      return `${out}}`;
    });
    return this.array ? `[${items.join(',')}]` : (items[0] ?? 'null');
  }
}

const isPast = (expiresAt: number | null, now: number) => expiresAt !== null && expiresAt <= now;

export interface SellerCounts {
  saveCount: number;
  wantedCount: number;
}

const SAVED_TTL_MS = 1_000;
const MAX_USERS = 10_000;

/**
 * Each caller's saved listing ids, kept per process for SAVED_TTL_MS (a save or unsave in this
 * process refreshes it at once; one in another process shows within SAVED_TTL_MS, like the hot
 * cache). Seller counts are read fresh: only callers who sell a listing on the page pay for them.
 */
export class Personaliser {
  private saved = new Map<number, { ids: Set<number>; at: number }>();

  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.db.kysely;
  }

  /** The caller's saved ids when cached and fresh (same rule as savedIds), else undefined. */
  private savedNow(userId: number): ReadonlySet<number> | undefined {
    const hit = this.saved.get(userId);
    return hit && Date.now() - hit.at < SAVED_TTL_MS ? hit.ids : undefined;
  }

  async savedIds(userId: number): Promise<ReadonlySet<number>> {
    const hit = this.savedNow(userId);
    if (hit) return hit;
    const rows = await this.db
      .selectFrom('listing_saves')
      .select('listing_id')
      .where('user_id', '=', userId)
      .execute();
    const ids = new Set(rows.map((r) => r.listing_id));
    if (this.saved.size >= MAX_USERS) this.saved.clear();
    this.saved.set(userId, { ids, at: Date.now() });
    return ids;
  }

  /** This process changed the caller's saves. */
  forget(userId: number): void {
    this.saved.delete(userId);
  }

  async sellerCounts(ids: readonly number[]): Promise<Map<number, SellerCounts>> {
    const counts = new Map<number, SellerCounts>(ids.map((id) => [id, { saveCount: 0, wantedCount: 0 }]));
    if (ids.length === 0) return counts;
    const saves = await this.db
      .selectFrom('listing_saves')
      .select(['listing_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('listing_id', 'in', [...ids])
      .groupBy('listing_id')
      .execute();
    for (const r of saves) (counts.get(r.listing_id) as SellerCounts).saveCount = Number(r.n);
    const wanted = await this.db
      .selectFrom('wanted_matches')
      .innerJoin('wanted_posts', 'wanted_posts.id', 'wanted_matches.wanted_id')
      .select([
        'wanted_matches.listing_id',
        (eb) => eb.fn.count<number | string>('wanted_matches.user_id').distinct().as('n'),
      ])
      .where('wanted_matches.listing_id', 'in', [...ids])
      .where('wanted_posts.expires_at', '>', this.ctx.clock())
      .groupBy('wanted_matches.listing_id')
      .execute();
    for (const r of wanted) (counts.get(r.listing_id) as SellerCounts).wantedCount = Number(r.n);
    return counts;
  }

  /**
   * Who RESERVED listings are reserved for, among `ids`, for the listings this caller sells or is
   * the reserved buyer of (features.md §A: nobody else learns who holds a listing).
   */
  async reservedFor(ids: readonly number[], userId: number): Promise<Map<number, ReservedFor>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('listings')
      .innerJoin('users', 'users.id', 'listings.reserved_buyer_id')
      .select(['listings.id as listing_id', 'users.id', 'users.first_name', 'users.last_name'])
      .where('listings.id', 'in', [...ids])
      .where('listings.status', '=', 'RESERVED')
      .where((eb) =>
        eb.or([eb('listings.seller_id', '=', userId), eb('listings.reserved_buyer_id', '=', userId)]),
      )
      .execute();
    return new Map(
      rows.map((r) => [r.listing_id, { id: r.id, firstName: r.first_name, lastName: r.last_name }]),
    );
  }

  /**
   * The same body as `body`, without waiting, when nothing it needs is outside memory: the caller's
   * saves are cached, no listing on it is RESERVED (who holds it is read fresh) and the caller sells
   * none of them (seller counts are read fresh). Undefined otherwise: then call `body`. The plain
   * answer comes as its cached UTF-8 bytes.
   */
  bodyNow(rendered: RenderedListings, principal: Principal): Buffer | string | undefined {
    const userId = principal.userId;
    const saved = this.savedNow(userId);
    if (!saved || rendered.reserved.length > 0 || rendered.sellers.includes(userId)) return undefined;
    if (!rendered.ids.some((id) => saved.has(id))) return rendered.plainBytes;
    return rendered.forViewer(saved, userId, new Map());
  }

  /** The body of a rendered answer for this caller. */
  async body(rendered: RenderedListings, principal: Principal): Promise<string> {
    const userId = principal.userId;
    const saved = await this.savedIds(userId);
    const own = rendered.ids.filter((_, i) => rendered.sellers[i] === userId);
    const reservedFor = await this.reservedFor(rendered.reserved, userId);
    if (own.length === 0 && reservedFor.size === 0 && !rendered.ids.some((id) => saved.has(id))) {
      return rendered.plain;
    }
    return rendered.forViewer(saved, userId, await this.sellerCounts(own), reservedFor, this.ctx.clock());
  }

  /** One listing object for this caller (answers built in code, not from the cache). */
  async listing(listing: Listing, principal: Principal): Promise<Listing> {
    const saved = await this.savedIds(principal.userId);
    const out: Listing = { ...listing, savedByMe: saved.has(listing.id) };
    if (listing.seller.id === principal.userId) {
      const c = (await this.sellerCounts([listing.id])).get(listing.id) as SellerCounts;
      out.saveCount = c.saveCount;
      out.wantedCount = c.wantedCount;
      out.expired = isPast(
        listing.expiresAt === null ? null : Date.parse(listing.expiresAt),
        this.ctx.clock(),
      );
    }
    const reserved =
      listing.status === 'RESERVED' ? await this.reservedFor([listing.id], principal.userId) : null;
    const holder = reserved?.get(listing.id);
    if (holder) out.reservedFor = holder;
    return out;
  }
}
