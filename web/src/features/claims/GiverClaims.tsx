import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Claim, ClaimStatus, Listing } from '@campus/contract';
import { ApiError } from '../../api/client';
import { chooseClaim, claimKeys, drawClaims } from '../../api/claims';
import { listingKeys } from '../../api/listings';
import { Button } from '../../ui/Button';
import { cx } from '../../ui/cx';
import { toast } from '../../ui/toast';
import { whenText } from './when';

const STATUS_LABEL: Record<ClaimStatus, string> = {
  OPEN: 'Waiting',
  CHOSEN: 'Picking up',
  PASSED: 'Missed the pickup',
  WITHDRAWN: 'Withdrew',
  LOST: 'Not this time',
  DONE: 'Picked up',
};
const STATUS_STYLE: Record<ClaimStatus, string> = {
  OPEN: 'bg-slate-100 text-slate-800',
  CHOSEN: 'bg-emerald-100 text-emerald-900',
  PASSED: 'bg-amber-100 text-amber-900',
  WITHDRAWN: 'bg-slate-100 text-slate-700',
  LOST: 'bg-slate-100 text-slate-700',
  DONE: 'bg-emerald-100 text-emerald-900',
};

const errorText = (error: unknown) =>
  error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Something went wrong. Try again.';

/**
 * The giver's claims (features.md §H): who claimed and their note; after the window, Choose one or
 * Draw (the app draws on its own 24 hours later); after that, the line in its recorded order.
 */
export function GiverClaims({
  listing,
  claims,
  loading,
}: {
  listing: Listing;
  claims: Claim[] | undefined;
  loading: boolean;
}) {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: claimKeys.listing(listing.id) }),
      client.invalidateQueries({ queryKey: listingKeys.detail(listing.id) }),
    ]);
  const choose = useMutation({
    mutationFn: (claim: Claim) => chooseClaim(claim.id),
    onSuccess: async (claim) => {
      toast.success(`${claim.claimant?.firstName ?? 'They'} can pick it up now: plan it in your chat`);
      await refresh();
    },
    onError: (error) => toast.error(errorText(error)),
  });
  const draw = useMutation({
    mutationFn: () => drawClaims(listing.id),
    onSuccess: async () => {
      toast.success('Drawn! The winner can pick it up now: plan it in your chat');
      await refresh();
    },
    onError: (error) => toast.error(errorText(error)),
  });
  const closesAt = listing.claimsCloseAt ? Date.parse(listing.claimsCloseAt) : 0;
  const open = Date.now() < closesAt;
  const list = [...(claims ?? [])].sort(
    (a, b) => (a.position ?? Infinity) - (b.position ?? Infinity) || a.id - b.id,
  );
  const decided = list.some((c) => c.position !== null);
  const canDecide =
    !open && !decided && listing.status === 'AVAILABLE' && list.some((c) => c.status === 'OPEN');
  const busy = choose.isPending || draw.isPending;

  return (
    <section
      aria-labelledby="claims-heading"
      className="rounded-2xl border border-emerald-200 bg-white p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="claims-heading" className="text-lg font-semibold text-slate-900">
          Claims {claims && <span className="text-slate-600">({claims.length})</span>}
        </h2>
        {canDecide && (
          <Button size="sm" onClick={() => draw.mutate()} loading={draw.isPending} disabled={busy}>
            Draw a winner
          </Button>
        )}
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {open
          ? `Claims close ${whenText(closesAt)}. Then choose someone or draw; everyone has the same chance.`
          : decided
            ? 'The line below is the order the item passes in if a pickup falls through.'
            : list.length > 0
              ? 'Claims are in. Choose someone, or draw a winner. Without a choice the app draws in 24 hours.'
              : 'Nobody claimed this item.'}
      </p>
      {loading ? (
        <p className="mt-3 text-sm text-slate-600">Loading…</p>
      ) : list.length === 0 ? null : (
        <ol className="mt-3 divide-y divide-slate-200">
          {list.map((claim) => {
            const name = claim.claimant
              ? `${claim.claimant.firstName} ${claim.claimant.lastName}`
              : 'A student';
            return (
              <li key={claim.id} className="flex items-start gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                    {claim.position !== null && (
                      <span className="text-slate-600 tabular-nums">#{claim.position}</span>
                    )}
                    {name}
                    <span
                      className={cx(
                        'rounded-full px-2 py-0.5 text-xs font-semibold',
                        STATUS_STYLE[claim.status],
                      )}
                    >
                      {STATUS_LABEL[claim.status]}
                    </span>
                  </p>
                  {claim.note && <p className="mt-0.5 text-sm break-words text-slate-700">“{claim.note}”</p>}
                </div>
                {canDecide && claim.status === 'OPEN' && (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={busy}
                    loading={choose.isPending && choose.variables?.id === claim.id}
                    onClick={() => choose.mutate(claim)}
                    aria-label={`Choose ${name}`}
                  >
                    Choose
                  </Button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
