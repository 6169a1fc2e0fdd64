import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Listing } from '@campus/contract';
import { api } from '../../api/client';
import { ListingGrid } from '../listings/components/ListingGrid';

/**
 * Hold for fall (features.md §H) on the Deals page: what the student sells or holds until a later
 * day ("Held for Omar until Aug 25"), from GET /listings/held. Nothing shows when nothing is held.
 */
export function HeldItems() {
  const headingId = useId();
  const held = useQuery({
    queryKey: ['listings', 'held'],
    queryFn: ({ signal }) => api.get<Listing[]>('/listings/held', { signal }),
  });
  const items = held.data ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mb-8">
      <h2 id={headingId} className="mb-1 text-xl font-bold text-slate-900">
        Held for later
      </h2>
      <p className="mb-3 text-sm text-slate-700">
        Reserved until a day you agreed on. Meet-ups open 7 days before it.
      </p>
      <ListingGrid listings={items} label="Held for later" />
    </section>
  );
}
