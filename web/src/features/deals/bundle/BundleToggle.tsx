import { BUNDLE_MESSAGES, type Listing } from '@campus/contract';
import { Button } from '../../../ui/Button';
import { CheckIcon, PlusIcon } from '../../../ui/icons';
import type { BundlePicks } from './useBundlePicks';

/**
 * "Add to bundle" on a seller's listing card; once picked it says "In bundle", and a second press
 * takes it out again. The listing's name is in the accessible name (after the visible words), so a
 * screen reader's list of buttons tells the cards apart.
 */
export function BundleToggle({ listing, bundle }: { listing: Listing; bundle: BundlePicks }) {
  const picked = bundle.has(listing.id);
  return (
    <Button
      size="sm"
      variant={picked ? 'primary' : 'secondary'}
      disabled={!picked && bundle.full}
      leadingIcon={picked ? <CheckIcon size={16} /> : <PlusIcon size={16} />}
      onClick={() => bundle.toggle(listing)}
    >
      {picked ? BUNDLE_MESSAGES.inBundle : BUNDLE_MESSAGES.addToBundle}
      <span className="sr-only">: {listing.name}</span>
    </Button>
  );
}
