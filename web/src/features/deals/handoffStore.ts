/**
 * The reserved buyer's hand-off code, kept on the device (features.md §A). The code is needed at the
 * meet-up, where the phone often has no signal: once fetched it is saved in localStorage, keyed by
 * student and listing, and shown from there offline — in the hand-off dialog and on the chat screen
 * when the conversation cannot load. It is removed as soon as the app learns the reservation is
 * over (sold, released, lapsed, no longer this student's), at logout, and after a month at most.
 */

const PREFIX = 'cm.handoff.';
/** Longer than any reservation lives (72 h, or 48 h after a meet-up booked days ahead). */
const MAX_AGE_MS = 30 * 24 * 3600_000;

export interface SavedHandoffCode {
  code: string;
  listingId: number;
  /** The chat the deal is in, so the chat screen can show the code when it cannot load offline. */
  roomId: string | null;
  /** What the code is for, named on the chat screen offline. */
  listingName: string | null;
  savedAt: number;
}

const keyOf = (userId: number, listingId: number) => `${PREFIX}${userId}.${listingId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled (private mode, policy)
  }
}

function parse(raw: string | null): SavedHandoffCode | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<SavedHandoffCode>;
    if (typeof v.code !== 'string' || typeof v.listingId !== 'number' || typeof v.savedAt !== 'number') {
      return null;
    }
    if (Date.now() - v.savedAt > MAX_AGE_MS) return null;
    return {
      code: v.code,
      listingId: v.listingId,
      roomId: typeof v.roomId === 'string' ? v.roomId : null,
      listingName: typeof v.listingName === 'string' ? v.listingName : null,
      savedAt: v.savedAt,
    };
  } catch {
    return null;
  }
}

export function readHandoffCode(userId: number, listingId: number): SavedHandoffCode | null {
  return parse(storage()?.getItem(keyOf(userId, listingId)) ?? null);
}

export function saveHandoffCode(userId: number, entry: Omit<SavedHandoffCode, 'savedAt'>): void {
  try {
    storage()?.setItem(keyOf(userId, entry.listingId), JSON.stringify({ ...entry, savedAt: Date.now() }));
  } catch {
    // A full or refused storage only costs the offline copy; the code still shows online.
  }
}

export function forgetHandoffCode(userId: number, listingId: number): void {
  try {
    storage()?.removeItem(keyOf(userId, listingId));
  } catch {
    // nothing stored
  }
}

/**
 * Forgets the code when a listing answer fetched after it was saved says the reservation is not
 * this student's any more: an older answer (the cache, a page rendered earlier) cannot end it.
 */
export function forgetHandoffCodeIfEnded(
  userId: number,
  listingId: number,
  reservedForMe: boolean,
  answeredAt: number,
): void {
  if (reservedForMe) return;
  const saved = readHandoffCode(userId, listingId);
  if (saved && answeredAt > saved.savedAt) forgetHandoffCode(userId, listingId);
}

/** The student's saved codes (for one chat when `roomId` is given); stale ones are dropped. */
export function savedHandoffCodes(userId: number, roomId?: string): SavedHandoffCode[] {
  const store = storage();
  if (!store) return [];
  const mine = `${PREFIX}${userId}.`;
  const found: SavedHandoffCode[] = [];
  for (const key of Object.keys(store)) {
    if (!key.startsWith(PREFIX)) continue;
    const entry = parse(store.getItem(key));
    if (!entry) {
      store.removeItem(key);
      continue;
    }
    if (key.startsWith(mine) && (roomId === undefined || entry.roomId === roomId)) found.push(entry);
  }
  return found;
}

/** At logout: the next student on this device must not find another's codes. */
export function forgetAllHandoffCodes(): void {
  const store = storage();
  if (!store) return;
  try {
    for (const key of Object.keys(store)) if (key.startsWith(PREFIX)) store.removeItem(key);
  } catch {
    // nothing stored
  }
}
