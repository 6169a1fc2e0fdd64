import { lazy, Suspense, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DEALS_MESSAGES, roomIdFor, type Listing } from '@campus/contract';
import { Button } from '../../../ui/Button';
import { cx } from '../../../ui/cx';
import { ChatIcon, WalletIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { prepareChatWithSeller } from '../chatHandoff';

// The offer dialog is code a visitor may never need: loaded on the first tap, not with the page.
const OfferDialog = lazy(() => import('../../deals/OfferDialog').then((m) => ({ default: m.OfferDialog })));

type BarState =
  | { kind: 'buy' }
  | { kind: 'reserved-other' }
  /** The reserved buyer, or the seller: their conversation with `buyerId`. */
  | { kind: 'reserved-mine'; buyerId: number; label: string };

/**
 * What the action bar offers the viewer, or null when it has nothing to offer: a sold listing
 * (the visitor panel says so), or the seller's own listing unless it is reserved for a buyer.
 */
export function actionBarState(listing: Listing, myId: number): BarState | null {
  const own = listing.seller.id === myId;
  if (listing.status === 'SOLD' || listing.isSold) return null;
  if (listing.status === 'RESERVED') {
    // reservedFor is only sent to the seller and the reserved buyer.
    const buyer = listing.reservedFor;
    if (own)
      return buyer
        ? { kind: 'reserved-mine', buyerId: buyer.id, label: `Reserved for ${buyer.firstName}` }
        : null;
    if (buyer?.id === myId) return { kind: 'reserved-mine', buyerId: myId, label: 'Reserved for you' };
    return { kind: 'reserved-other' };
  }
  return own ? null : { kind: 'buy' };
}

/**
 * "Make an offer" beside "Chat with the seller" (features.md §A "Offers"), where the buyer decides.
 * On phones the bar is fixed to the bottom of the screen (above the home indicator), so it stays in
 * reach while the student scrolls the photos and description; on desktop it sits under the price.
 * A reserved listing leads its buyer and its seller to their conversation instead.
 */
export function ListingActionBar({ listing, myId }: { listing: Listing; myId: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [opening, setOpening] = useState(false);
  const [offering, setOffering] = useState(false);
  const noteId = useId();
  const state = actionBarState(listing, myId);
  if (!state) return null;

  async function openChat(buyerId: number) {
    if (opening) return;
    setOpening(true);
    try {
      const { to, state: navState } = await prepareChatWithSeller(listing, buyerId, location.pathname);
      navigate(to, { state: navState });
      // Still opening until this page goes: the chat screen's chunk may still be loading, and a
      // "Make an offer" pressed meanwhile would open a dialog the navigation then takes away.
    } catch (error) {
      setOpening(false);
      throw error;
    }
  }

  let content;
  if (state.kind === 'reserved-mine') {
    content = (
      <>
        <p id={noteId} className="min-w-0 flex-1 leading-tight">
          <span className="block font-semibold text-slate-900">{state.label}</span>
          <span className="block text-sm text-slate-600">Meet and hand off through your chat</span>
        </p>
        <Button
          size="lg"
          loading={opening}
          aria-describedby={noteId}
          leadingIcon={<ChatIcon size={20} />}
          onClick={() => void openChat(state.buyerId)}
          className="shrink-0 px-5 [&>svg]:shrink-0"
        >
          Open chat
        </Button>
      </>
    );
  } else {
    content = (
      <>
        {state.kind === 'buy' && listing.free ? null : state.kind === 'buy' ? (
          <Button
            size="lg"
            variant="secondary"
            // Both labels in full on a 360 px phone: the icon only where there is room.
            leadingIcon={<WalletIcon size={20} className="hidden sm:block" />}
            // One way on at a time: the chat is opening.
            disabled={opening}
            onClick={() => setOffering(true)}
            className="shrink-0 px-4 text-sm sm:text-base [&>svg]:shrink-0"
          >
            {DEALS_MESSAGES.makeOffer}
          </Button>
        ) : (
          <p id={noteId} className="min-w-0 flex-1 text-sm leading-tight text-slate-700">
            <span className="block font-semibold text-slate-900">{DEALS_MESSAGES.reserved}</span>
            Reserved for another student. You can still ask the seller.
          </p>
        )}
        <Button
          size="lg"
          loading={opening}
          aria-describedby={state.kind === 'reserved-other' ? noteId : undefined}
          leadingIcon={<ChatIcon size={20} className="hidden sm:block" />}
          onClick={() => void openChat(myId)}
          className={cx(
            'px-4 text-sm sm:text-base [&>svg]:shrink-0',
            state.kind === 'buy' ? 'min-w-0 flex-1' : 'shrink-0',
            // A free item is claimed on the page (features.md §H): the chat is the one action here.
            state.kind === 'buy' && listing.free && 'w-full',
          )}
        >
          Chat with the seller
        </Button>
      </>
    );
  }

  return (
    <div
      data-testid="listing-action-bar"
      className={
        // Phones: fixed to the bottom edge, or on top of the tab bar when there is one (without the
        // column's spacing margins), padded above the home indicator (viewport-fit=cover).
        'fixed inset-x-0 bottom-[var(--tab-bar-space)] z-20 max-lg:my-0 border-t border-slate-200 bg-white px-4 pt-3 ' +
        'pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-4px_16px_rgb(15_23_42/0.08)] ' +
        'lg:static lg:z-auto lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none'
      }
    >
      <div className="mx-auto flex max-w-xl items-center gap-3 lg:max-w-none">{content}</div>
      {offering && (
        <Suspense fallback={null}>
          <OfferDialog
            listing={listing}
            roomId={roomIdFor(myId, listing.seller.id)}
            open
            onClose={() => setOffering(false)}
            onSent={() => {
              setOffering(false);
              toast.success(`Offer sent to ${listing.seller.firstName}`);
              // The offer card and the seller's answer are in the conversation.
              void openChat(myId);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
