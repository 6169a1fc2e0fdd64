import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CLAIMS_LIMITS, type Claim, type Listing } from '@campus/contract';
import { ApiError } from '../../api/client';
import { claimItem, claimKeys, countFreeNearby, fetchClaims, withdrawClaim } from '../../api/claims';
import { listingKeys } from '../../api/listings';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast';
import { GiverClaims } from './GiverClaims';
import { whenText } from './when';

const errorText = (error: unknown) =>
  error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Something went wrong. Try again.';

/**
 * A free item's claims on its page (features.md §H): the giver's list with Choose and Draw; for
 * anyone else "Claim it" with a note during the window, then where their claim stands.
 */
export function ClaimPanel({ listing, myId }: { listing: Listing; myId: number }) {
  const giver = listing.seller.id === myId;
  const claims = useQuery({
    queryKey: claimKeys.listing(listing.id),
    queryFn: () => fetchClaims(listing.id),
  });
  if (giver) return <GiverClaims listing={listing} claims={claims.data} loading={claims.isLoading} />;
  const mine = claims.data?.find((c) => c.claimantId === myId);
  return (
    <section
      aria-labelledby="claim-heading"
      className="rounded-2xl border border-emerald-200 bg-emerald-50/60 p-4 sm:p-5"
    >
      <h2 id="claim-heading" className="text-lg font-semibold text-slate-900">
        Free to a good home
      </h2>
      {claims.isLoading ? (
        <p className="mt-2 text-sm text-slate-600">Loading…</p>
      ) : mine ? (
        <MyClaim listing={listing} claim={mine} />
      ) : (
        <ClaimForm listing={listing} />
      )}
    </section>
  );
}

function useRefresh(listingId: number) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: claimKeys.listing(listingId) }),
      client.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
    ]);
}

function ClaimForm({ listing }: { listing: Listing }) {
  const noteId = useId();
  const hintId = useId();
  const [note, setNote] = useState('');
  const refresh = useRefresh(listing.id);
  const claim = useMutation({
    mutationFn: () => claimItem(listing.id, note.trim()),
    onSuccess: async () => {
      toast.success('Claimed! You’ll hear when claims close.');
      await refresh();
    },
    onError: (error) => toast.error(errorText(error)),
  });
  const closesAt = listing.claimsCloseAt ? Date.parse(listing.claimsCloseAt) : 0;
  if (listing.status !== 'AVAILABLE' || Date.now() >= closesAt) {
    return (
      <p className="mt-2 text-sm text-slate-700">
        Claims for this item have closed.{' '}
        <Link to="/all_listings?free=true" className="font-semibold text-brand-700 underline">
          See other free items
        </Link>
      </p>
    );
  }
  return (
    <form
      className="mt-2 space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (!claim.isPending) claim.mutate();
      }}
    >
      <p id={hintId} className="text-sm text-slate-700">
        Claims close {whenText(closesAt)}. Everyone who claims by then has the same chance: the giver chooses
        someone or draws.
      </p>
      <div>
        <label htmlFor={noteId} className="block text-sm font-semibold text-slate-800">
          A note for {listing.seller.firstName} (optional)
        </label>
        <textarea
          id={noteId}
          name="note"
          rows={2}
          maxLength={CLAIMS_LIMITS.noteMax}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          aria-describedby={hintId}
          placeholder="e.g. I can pick it up this evening"
          className="mt-1.5 w-full rounded-xl border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-brand-600 focus:ring-4 focus:ring-brand-100 focus:outline-none"
        />
      </div>
      <Button type="submit" size="lg" fullWidth loading={claim.isPending}>
        Claim it
      </Button>
    </form>
  );
}

/** Where the caller's claim stands, said kindly when someone else got the item. */
function MyClaim({ listing, claim }: { listing: Listing; claim: Claim }) {
  const refresh = useRefresh(listing.id);
  const withdraw = useMutation({
    mutationFn: () => withdrawClaim(listing.id),
    onSuccess: async () => {
      toast.success('Claim withdrawn');
      await refresh();
    },
    onError: (error) => toast.error(errorText(error)),
  });
  const closesAt = listing.claimsCloseAt ? Date.parse(listing.claimsCloseAt) : 0;
  const someoneElse =
    claim.status === 'LOST' || (claim.status === 'OPEN' && claim.position !== null && claim.position > 1);
  const withdrawButton = (label: string) => (
    <Button
      variant="secondary"
      size="sm"
      className="mt-3"
      loading={withdraw.isPending}
      onClick={() => withdraw.mutate()}
    >
      {label}
    </Button>
  );
  if (someoneElse)
    return (
      <SomeoneElse
        claim={claim}
        withdraw={claim.status === 'OPEN' ? withdrawButton('Leave the line') : null}
      />
    );
  switch (claim.status) {
    case 'OPEN':
      return (
        <div role="status" className="mt-2 text-sm text-slate-700">
          <p>
            <span className="font-semibold text-slate-900">You claimed this.</span>{' '}
            {Date.now() < closesAt
              ? `Claims close ${whenText(closesAt)}; then ${listing.seller.firstName} chooses someone or draws.`
              : `${listing.seller.firstName} will choose someone or draw soon.`}
          </p>
          {withdrawButton('Withdraw my claim')}
        </div>
      );
    case 'CHOSEN':
      return (
        <div role="status" className="mt-2 text-sm text-slate-700">
          <p className="font-semibold text-emerald-800">It’s yours!</p>
          <p className="mt-1">
            Agree on a pickup in your chat with {listing.seller.firstName} and show your hand-off code there.
          </p>
          {withdrawButton('I can’t pick it up')}
        </div>
      );
    case 'DONE':
      return <p className="mt-2 text-sm font-semibold text-emerald-800">You picked this up. Enjoy it!</p>;
    case 'PASSED':
      return (
        <p className="mt-2 text-sm text-slate-700">
          The pickup time passed, so the item went to the next student in line.
        </p>
      );
    case 'WITHDRAWN':
      return <p className="mt-2 text-sm text-slate-700">You withdrew your claim.</p>;
    default:
      return null;
  }
}

/** "Someone else got it this time — N other free items nearby." */
function SomeoneElse({ claim, withdraw }: { claim: Claim; withdraw: React.ReactNode }) {
  const nearby = useQuery({ queryKey: [...claimKeys.all, 'nearby'], queryFn: countFreeNearby });
  const others = nearby.data ? Math.max(0, nearby.data.count - 1) : null;
  return (
    <div role="status" className="mt-2 text-sm text-slate-700">
      <p className="font-semibold text-slate-900">
        Someone else got it this time
        {others !== null &&
          others > 0 &&
          ` — ${others}${nearby.data?.more ? '+' : ''} other free ${others === 1 ? 'item' : 'items'} nearby`}
        .
      </p>
      {claim.status === 'OPEN' && claim.position !== null && (
        <p className="mt-1">You’re number {claim.position} in line if the pickup falls through.</p>
      )}
      <Link
        to="/all_listings?free=true"
        className="mt-2 inline-block font-semibold text-brand-700 underline hover:text-brand-800"
      >
        See free items
      </Link>
      {withdraw && <div>{withdraw}</div>}
    </div>
  );
}
