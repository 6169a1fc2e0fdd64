import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, SELLING_MESSAGES, type Listing } from '@campus/contract';
import { listingKeys } from '../../../api/listings';
import { queryClient } from '../../../api/queryClient';
import { ReservedSoldPanel } from '../../deals/ReservedSoldPanel';
import { reservedBuyerToAsk } from '../../deals/rules';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { Button, ButtonLink } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { CheckIcon, HeartIcon, ListIcon, MegaphoneIcon, PencilIcon } from '../../../ui/icons';
import { InlineConfirm } from '../../../ui/InlineConfirm';
import { ListingFreshness } from '../../freshness/ListingFreshness';
import { useRenewListing } from '../../freshness/useRenewListing';
import { useListingActions } from '../hooks/useListingActions';

/**
 * The seller's view of their own listing: how many saved it or look for it, edit, mark as sold
 * (asking first when it is reserved for a buyer) and delete with a confirmation.
 */
export function OwnerPanel({ listing }: { listing: Listing }) {
  const navigate = useNavigate();
  const { userId } = useCurrentUser();
  const { toggleSold, removeConfirmed, isPending } = useListingActions();
  const { renew, renewing } = useRenewListing();
  const [confirming, setConfirming] = useState(false);
  const [askingSold, setAskingSold] = useState(false);
  const reservedBuyer = reservedBuyerToAsk(listing);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const busy = isPending(listing.id);
  return (
    <Card as="section" aria-labelledby="owner-heading" padding="sm" className="sm:p-5">
      <h2 id="owner-heading" className="flex items-center gap-2 font-semibold text-slate-900">
        <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <CheckIcon size={18} />
        </span>
        {MESSAGES.ownListing}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {listing.isSold
          ? 'It is marked as sold and hidden from browse and search.'
          : listing.expired
            ? 'It expired and left browse and search. Renew it to list it again.'
            : listing.status === 'RESERVED'
              ? `Reserved for ${listing.reservedFor?.firstName ?? 'a buyer'}. Confirm the sale with their hand-off code in your chat.`
              : 'Students can find it in browse and search and message you about it.'}
      </p>
      <ul className="mt-3 space-y-1.5 text-sm font-medium text-slate-800">
        <li className="flex items-center gap-2">
          <HeartIcon size={18} filled={(listing.saveCount ?? 0) > 0} className="text-rose-600" />
          {listing.saveCount === 1 ? '1 student saved it' : `${listing.saveCount ?? 0} students saved it`}
        </li>
        {(listing.wantedCount ?? 0) > 0 && (
          <li className="flex items-center gap-2">
            <MegaphoneIcon size={18} className="text-brand-700" />
            {SELLING_MESSAGES.lookingFor(listing.wantedCount ?? 0)}
          </li>
        )}
      </ul>
      <ListingFreshness
        listing={listing}
        onRenew={renew}
        busy={renewing === listing.id}
        titled={false}
        className="mt-3"
      />
      {askingSold && reservedBuyer && userId !== null ? (
        <div className="mt-4">
          <ReservedSoldPanel
            listing={listing}
            buyer={reservedBuyer}
            sellerId={userId}
            busy={busy}
            onSellWithoutDeal={() => {
              setAskingSold(false);
              void toggleSold(listing);
            }}
            onCancel={() => {
              setAskingSold(false);
              void queryClient.invalidateQueries({ queryKey: listingKeys.detail(listing.id) });
            }}
          />
        </div>
      ) : confirming ? (
        <InlineConfirm
          className="mt-4"
          message={MESSAGES.deleteConfirm}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={async () => {
            if (await removeConfirmed(listing)) navigate('/personalListings', { replace: true });
            else {
              setConfirming(false);
              requestAnimationFrame(() => deleteButton.current?.focus());
            }
          }}
          onCancel={() => {
            setConfirming(false);
            requestAnimationFrame(() => deleteButton.current?.focus());
          }}
        />
      ) : (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          <ButtonLink
            to={`/edit_listing/${listing.id}`}
            state={{ listing }}
            variant="secondary"
            leadingIcon={<PencilIcon size={18} />}
          >
            Edit
          </ButtonLink>
          <Button
            onClick={() => (reservedBuyer ? setAskingSold(true) : void toggleSold(listing))}
            disabled={busy}
          >
            {listing.isSold ? 'Mark as Unsold' : 'Mark as Sold'}
          </Button>
          <Button
            ref={deleteButton}
            variant="danger-outline"
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
        </div>
      )}
      <ButtonLink
        to="/personalListings"
        variant="ghost"
        className="mt-3 -ml-3 text-brand-700 hover:text-brand-800"
        leadingIcon={<ListIcon size={18} />}
      >
        {MESSAGES.viewOwnListings}
      </ButtonLink>
    </Card>
  );
}
