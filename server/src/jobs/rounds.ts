/**
 * How the worker shares itself between campuses (features.md §E): one campus's surge must not
 * delay another's mail, and a code e-mail (JOB_PRIORITY.code) must not wait behind notifications.
 *
 * The worker works in rounds. A round serves only the highest priority that is due anywhere (so
 * every due code goes out before any notification, whichever campus it is for), and serves every
 * campus that has jobs of that priority: each an equal share of the round, at least one job. A
 * campus with ten thousand due jobs therefore gets one share per round like a campus with one, and
 * the other campus's job runs in the first round. The campus served first moves on each round, so
 * a round cut short (runDue's limit) does not always favour the same campus.
 */

/** A campus with due, unclaimed jobs, and the highest priority among them. */
export interface DueLane {
  campusId: number;
  top: number;
}

export interface RoundShare {
  campusId: number;
  take: number;
}

export interface RoundPlan {
  /** The one priority this round claims. */
  priority: number;
  /** In the order they are claimed and started. */
  shares: RoundShare[];
}

/**
 * The round for these lanes. `after`: the campus served first in the previous round (this round
 * starts with the next campus by id). `roundSize`: jobs per round, split evenly. `limit`: the most
 * jobs the caller still wants (runDue's limit), which may cut the round short.
 */
export function planRound(
  lanes: readonly DueLane[],
  after: number | undefined,
  roundSize: number,
  limit: number,
): RoundPlan | undefined {
  if (lanes.length === 0 || limit <= 0) return undefined;
  const priority = Math.max(...lanes.map((l) => l.top));
  const campuses = lanes
    .filter((l) => l.top === priority)
    .map((l) => l.campusId)
    .sort((a, b) => a - b);
  const start = after === undefined ? 0 : campuses.findIndex((id) => id > after);
  const rotated = start <= 0 ? campuses : [...campuses.slice(start), ...campuses.slice(0, start)];
  const n = rotated.length;
  const each = Math.max(1, Math.floor(roundSize / n));
  // A limit smaller than the round is shared evenly too (the first in rotation get the remainder).
  const total = Math.min(each * n, limit);
  const shares = rotated
    .map((campusId, i) => ({ campusId, take: Math.floor(total / n) + (i < total % n ? 1 : 0) }))
    .filter((s) => s.take > 0);
  return { priority, shares };
}

/** The first of each list, then the second of each, …: every campus's first job starts early. */
export function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i += 1) {
    for (const list of lists) if (i < list.length) out.push(list[i]!);
  }
  return out;
}

/** Runs `work` on every item, at most `concurrency` at a time, starting them in order. */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}
