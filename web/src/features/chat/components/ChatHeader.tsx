import { Link } from 'react-router';
import { chatImageUrl, type ChatListingRef } from '../../../api/chat';
import { Button } from '../../../ui/Button';
import { CloseIcon, TagIcon } from '../../../ui/icons';
import { BlockButton } from '../../safety/BlockButton';
import { Avatar } from './Avatar';

/** Spec §2 header: the peer's first and last name, the listing talked about (linked), Close. */
export function ChatHeader({
  peer,
  peerId,
  listing,
  onClose,
  title,
}: {
  /** Shown instead of the peer's name when there is no conversation to show. */
  title?: string;
  peer: { firstName: string; lastName: string } | null;
  peerId: number | null;
  listing: ChatListingRef | null;
  onClose: () => void;
}) {
  const name = peer ? `${peer.firstName} ${peer.lastName}`.trim() : '';
  return (
    <header className="flex shrink-0 items-center gap-3 border-b border-slate-200 bg-white px-3 py-2.5 sm:px-5">
      {peer && peerId !== null ? (
        <Avatar id={peerId} firstName={peer.firstName} lastName={peer.lastName} size="sm" />
      ) : title ? null : (
        <span aria-hidden="true" className="h-9 w-9 shrink-0 animate-pulse rounded-full bg-slate-200" />
      )}
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-base leading-tight font-bold text-slate-900 sm:text-lg">
          {name && peerId !== null ? (
            // Block links of at least 24 px: the name and the listing sit one above the other and
            // must stay separate touch targets on a phone (WCAG 2.5.8).
            <Link
              to={`/u/${peerId}`}
              className="block min-h-6 truncate rounded leading-6 underline-offset-2 hover:text-brand-800 hover:underline"
            >
              {name}
              <span className="sr-only"> — view profile</span>
            </Link>
          ) : (
            name ||
            title || (
              <>
                <span
                  aria-hidden="true"
                  className="inline-block h-4 w-32 animate-pulse rounded bg-slate-200 align-middle"
                />
                <span className="sr-only">Loading…</span>
              </>
            )
          )}
        </h1>
        {listing && (
          <Link
            to={`/single_listing/${listing.id}`}
            className="flex min-h-6 min-w-0 items-center gap-1.5 rounded text-sm text-brand-700 hover:text-brand-800 hover:underline"
          >
            {listing.thumbnailUrl ? (
              <img
                src={chatImageUrl(listing.thumbnailUrl)}
                alt=""
                className="h-6 w-6 shrink-0 rounded object-cover ring-1 ring-slate-200"
              />
            ) : (
              <TagIcon size={16} className="shrink-0" />
            )}
            <span className="truncate">
              <span className="sr-only">About the listing </span>
              {listing.name}
            </span>
          </Link>
        )}
      </div>
      {peer && peerId !== null && <BlockButton userId={peerId} name={name} />}
      <Button variant="secondary" size="sm" onClick={onClose} leadingIcon={<CloseIcon size={18} />}>
        Close
      </Button>
    </header>
  );
}
