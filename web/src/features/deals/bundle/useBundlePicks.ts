import { useCallback, useEffect, useState } from 'react';
import { BUNDLE_LIMITS } from '@campus/contract';

/** What the tray needs of a picked listing (kept across reloads of the page in this tab); a Listing is one. */
export interface BundlePick {
  id: number;
  name: string;
  price: number;
  thumbnailUrl: string | null;
}

const keyOf = (sellerId: number) => `campus-market:bundle:${sellerId}`;

function read(sellerId: number): BundlePick[] {
  try {
    const raw = sessionStorage.getItem(keyOf(sellerId));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as BundlePick[]) : [];
  } catch {
    return [];
  }
}

/**
 * The listings a buyer picked for a bundle from one seller (features.md §H). Per seller and per
 * tab (session storage), so a reload keeps the tray and another seller's page starts empty. The
 * server checks every rule again; this only mirrors the 10-item cap.
 */
export function useBundlePicks(sellerId: number) {
  const [picks, setPicks] = useState<BundlePick[]>(() => read(sellerId));
  useEffect(() => setPicks(read(sellerId)), [sellerId]);
  const save = useCallback(
    (next: BundlePick[]) => {
      setPicks(next);
      try {
        if (next.length === 0) sessionStorage.removeItem(keyOf(sellerId));
        else sessionStorage.setItem(keyOf(sellerId), JSON.stringify(next));
      } catch {
        // Private mode without storage: the tray still works until the page is left.
      }
    },
    [sellerId],
  );
  const has = useCallback((id: number) => picks.some((p) => p.id === id), [picks]);
  const toggle = useCallback(
    (listing: BundlePick) => {
      if (picks.some((p) => p.id === listing.id)) save(picks.filter((p) => p.id !== listing.id));
      else if (picks.length < BUNDLE_LIMITS.maxListings)
        save([
          ...picks,
          { id: listing.id, name: listing.name, price: listing.price, thumbnailUrl: listing.thumbnailUrl },
        ]);
    },
    [picks, save],
  );
  /** Drops picks that are no longer offered (sold or reserved since they were picked). */
  const keepOnly = useCallback(
    (available: readonly number[]) => {
      const next = picks.filter((p) => available.includes(p.id));
      if (next.length !== picks.length) save(next);
    },
    [picks, save],
  );
  const clear = useCallback(() => save([]), [save]);
  const full = picks.length >= BUNDLE_LIMITS.maxListings;
  return { picks, has, toggle, keepOnly, clear, full };
}

export type BundlePicks = ReturnType<typeof useBundlePicks>;

/** The sum of the asking prices, in dollars with cents (no float dust: 0.1 + 0.2 is 0.3). */
export function askingTotal(picks: readonly BundlePick[]): number {
  return picks.reduce((sum, p) => sum + Math.round(p.price * 100), 0) / 100;
}
