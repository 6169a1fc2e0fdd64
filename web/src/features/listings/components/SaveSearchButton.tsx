import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { serverMessageOf } from '../../../api/client';
import { createSavedSearch, sellingKeys } from '../../../api/selling';
import { Button } from '../../../ui/Button';
import { BookmarkIcon, CheckIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import type { BrowseParams } from '../params';

/**
 * "Save this search" (features.md §B "Saved searches"): keeps the current words and filters so the
 * student hears about new matches. After saving, the button becomes a link to the list.
 */
export function SaveSearchButton({ params }: { params: BrowseParams }) {
  const client = useQueryClient();
  const key = JSON.stringify({ ...params, sort: undefined });
  const [savedKey, setSavedKey] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (savedKey === key) {
    return (
      <Link
        to="/saved_searches"
        className="inline-flex h-10 items-center gap-1.5 rounded-xl px-3 text-sm font-semibold text-emerald-800 hover:bg-emerald-50"
      >
        <CheckIcon size={18} /> Search saved · see all
      </Link>
    );
  }

  async function save() {
    setBusy(true);
    try {
      await createSavedSearch({
        query: params.query || undefined,
        categories: params.categories,
        priceMin: params.priceMin,
        priceMax: params.priceMax,
        conditions: params.conditions,
        courseCode: params.courseCode || undefined,
      });
      setSavedKey(key);
      void client.invalidateQueries({ queryKey: sellingKeys.searches });
      toast.success("Search saved. We'll tell you about new matches.");
    } catch (error) {
      toast.error(serverMessageOf(error) ?? 'Could not save this search. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button
      variant="secondary"
      loading={busy}
      onClick={() => void save()}
      leadingIcon={<BookmarkIcon size={18} />}
    >
      Save this search
    </Button>
  );
}
