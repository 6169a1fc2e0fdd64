import { CATEGORY_LABELS, MESSAGES, type Listing } from '@campus/contract';
import { ButtonLink } from '../../../ui/Button';
import { ChatIcon, PinIcon } from '../../../ui/icons';
import { useTimeBasis } from '../../../ui/timeBasis';
import { ReportButton } from '../../safety/ReportDialog';

/**
 * What another student sees under a listing's description: a report link and the two info blocks
 * ("Chat with the seller" and "Make an offer" are in the action bar); a sold listing says it is no
 * longer open to new buyers instead.
 */
export function VisitorPanel({ listing }: { listing: Listing }) {
  const { now } = useTimeBasis();
  // Expired (features.md §H): out of browse and search, but a link or a chat still opens it.
  const expired = listing.expiresAt !== null && Date.parse(listing.expiresAt) <= now;
  // a sold listing is no longer open to new buyers.
  if (listing.isSold) {
    return (
      <div role="status" className="rounded-2xl border border-slate-300 bg-slate-100 p-4">
        <p className="font-semibold text-slate-900">{MESSAGES.listingSold}</p>
        <p className="mt-1 text-sm text-slate-700">{MESSAGES.listingSoldNoChat}</p>
        <ButtonLink
          to={`/cat_listing?categories=${listing.category}`}
          variant="secondary"
          size="sm"
          className="mt-3"
        >
          Browse {CATEGORY_LABELS[listing.category] ?? 'similar listings'}
        </ButtonLink>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      {expired && (
        <p
          role="status"
          className="rounded-2xl border border-slate-300 bg-slate-100 p-4 text-sm text-slate-800"
        >
          <span className="font-semibold text-slate-900">No longer listed. </span>
          The seller has not renewed it, so it may be gone: ask them before you go.
        </p>
      )}
      {/* A div, not a p: the report dialog inside it may not sit in a paragraph (the HTML parser
          would close the p before it, and the server-rendered page would not match the app's). */}
      <div className="text-sm text-slate-600">
        Something wrong with this listing?{' '}
        <ReportButton targetType="LISTING" targetId={listing.id} label="Report listing" />
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1">
        <div className="flex gap-3 rounded-2xl border border-slate-200 bg-white p-4">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
            <ChatIcon size={20} />
          </span>
          <div>
            <h2 className="font-semibold text-slate-900">Message the Seller</h2>
            <p className="mt-0.5 text-sm text-slate-600">
              Ask questions, confirm condition, and arrange pickup details
            </p>
          </div>
        </div>
        <div className="flex gap-3 rounded-2xl border border-slate-200 bg-white p-4">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-accent-100 text-accent-600">
            <PinIcon size={20} />
          </span>
          <div>
            <h2 className="font-semibold text-slate-900">Pickup on Campus</h2>
            <p className="mt-0.5 text-sm text-slate-600">Decide your meetup spot</p>
          </div>
        </div>
      </div>
    </div>
  );
}
