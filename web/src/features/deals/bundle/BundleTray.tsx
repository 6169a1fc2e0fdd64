import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { BUNDLE_LIMITS, BUNDLE_MESSAGES, formatDollars, type Listing } from '@campus/contract';
import { Button } from '../../../ui/Button';
import { CloseIcon, TagIcon, WalletIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { prepareChatWithSeller } from '../../listings/chatHandoff';
import { askingTotal, type BundlePicks } from './useBundlePicks';

const BundleOfferDialog = lazy(() => import('./BundleOfferDialog'));

/**
 * The bundle tray (features.md §H): the items picked from this seller, their total asking price,
 * and "Offer for the bundle". It stays pinned to the bottom of the screen while the seller's
 * listings scroll by, so picking and offering happen in one place.
 */
export function BundleTray({
  bundle,
  listings,
  sellerFirstName,
  myId,
}: {
  bundle: BundlePicks;
  listings: readonly Listing[];
  sellerFirstName: string;
  myId: number;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const [offering, setOffering] = useState(false);
  const { picks } = bundle;
  if (picks.length === 0) return null;
  const total = askingTotal(picks);
  const enough = picks.length >= BUNDLE_LIMITS.minListings;

  async function sent() {
    setOffering(false);
    const lead = listings.find((l) => l.id === picks[0]?.id);
    bundle.clear();
    toast.success(`Bundle offer sent to ${sellerFirstName}`);
    // The bundle's card and the seller's answer are in the conversation.
    if (lead) {
      const { to, state } = await prepareChatWithSeller(lead, myId, location.pathname);
      navigate(to, { state });
    }
  }

  return (
    <section
      aria-labelledby="bundle-tray-title"
      className="sticky bottom-[calc(var(--tab-bar-space)+0.75rem)] z-10 mt-4 rounded-2xl border border-brand-200 bg-white p-4 shadow-lift"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id="bundle-tray-title" className="text-base font-bold text-slate-900">
            {BUNDLE_MESSAGES.trayTitle(picks.length)}
          </h3>
          <p className="text-sm text-slate-600">{BUNDLE_MESSAGES.askingTotal(total)}</p>
        </div>
        <Button size="sm" variant="ghost" onClick={bundle.clear}>
          Clear
        </Button>
      </div>
      <ul aria-label="Items in the bundle" className="mt-3 flex max-h-36 flex-col gap-2 overflow-y-auto">
        {picks.map((p) => (
          <li key={p.id} className="flex items-center gap-3">
            {p.thumbnailUrl ? (
              <img src={p.thumbnailUrl} alt="" className="size-10 shrink-0 rounded-lg object-cover" />
            ) : (
              <span
                aria-hidden="true"
                className="grid size-10 shrink-0 place-items-center rounded-lg bg-amber-50 text-amber-700"
              >
                <TagIcon size={18} />
              </span>
            )}
            <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900">{p.name}</span>
            <span className="text-sm text-slate-700 tabular-nums">{formatDollars(p.price)}</span>
            <button
              type="button"
              aria-label={`${BUNDLE_MESSAGES.removeFromBundle}: ${p.name}`}
              onClick={() => bundle.toggle(p)}
              className="grid size-9 shrink-0 place-items-center rounded-full text-slate-600 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-brand-500"
            >
              <CloseIcon size={16} />
            </button>
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-col gap-2 border-t border-slate-100 pt-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          {enough
            ? 'One offer for all of them. If the seller accepts, every item is reserved for you.'
            : 'Pick at least one more item to make a bundle.'}
        </p>
        <Button
          disabled={!enough}
          leadingIcon={<WalletIcon size={18} />}
          onClick={() => setOffering(true)}
          className="shrink-0"
        >
          {BUNDLE_MESSAGES.offerForBundle}
        </Button>
      </div>
      {offering && (
        <Suspense fallback={null}>
          <BundleOfferDialog
            picks={picks}
            roomSeller={listings[0]?.seller.id ?? 0}
            myId={myId}
            onClose={() => setOffering(false)}
            onSent={() => void sent()}
          />
        </Suspense>
      )}
    </section>
  );
}
