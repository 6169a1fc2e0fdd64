import { BUNDLE_MESSAGES, type Listing } from '@campus/contract';
import { Button } from '../../../ui/Button';
import { CheckIcon, PlusIcon } from '../../../ui/icons';
import type { BundlePicks } from './useBundlePicks';

/** "Add to bundle" on a seller's listing card: a toggle, so a second press takes it out again. */
export function BundleToggle({ listing, bundle }: { listing: Listing; bundle: BundlePicks }) {
  const picked = bundle.has(listing.id);
  return (
    <Button
      size="sm"
      variant={picked ? 'primary' : 'secondary'}
      aria-pressed={picked}
      aria-label={`${BUNDLE_MESSAGES.addToBundle}: ${listing.name}`}
      disabled={!picked && bundle.full}
      leadingIcon={picked ? <CheckIcon size={16} /> : <PlusIcon size={16} />}
      onClick={() => bundle.toggle(listing)}
    >
      {picked ? BUNDLE_MESSAGES.inBundle : BUNDLE_MESSAGES.addToBundle}
    </Button>
  );
}
