import { CONDITION_LABELS, formatDollars, SHARE_MESSAGES, type Listing } from '@campus/contract';
import { cx } from '../../../ui/cx';
import { toast } from '../../../ui/toast';

/** Share: a box with an arrow out of it (the share sheet's own symbol on phones). */
function ShareIcon() {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="text-slate-600"
    >
      <path d="M12 3v12M8 7l4-4 4 4" />
      <path d="M6 11H5a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1" />
    </svg>
  );
}

/** The listing's address on this site, without the query or state of the page it was opened from. */
export function listingLink(id: number): string {
  return `${window.location.origin}/single_listing/${id}`;
}

/**
 * A phone (a coarse pointer) with the Web Share API opens the share sheet — WhatsApp, Messages,
 * the group chat. Elsewhere (a laptop, where the sheet is an odd pop-up) the link is copied.
 */
function opensShareSheet(): boolean {
  return typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

/** Copies text: the Clipboard API, else (an http page, an old browser) a selected text area. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/**
 * "Share" beside Save on the listing page: the share sheet on phones, "Link copied" elsewhere. The
 * shared link opens the listing's preview for anyone (docs/decisions.md "Sharing and link previews").
 */
export function ShareButton({ listing, className }: { listing: Listing; className?: string }) {
  async function share() {
    const url = listingLink(listing.id);
    if (opensShareSheet()) {
      const condition = listing.condition ? ` · ${CONDITION_LABELS[listing.condition]}` : '';
      try {
        await navigator.share({
          title: listing.name,
          text: `${listing.name}: ${formatDollars(listing.price)}${condition} on Campus Market`,
          url,
        });
        return;
      } catch (error) {
        // Closing the sheet is a choice, not a failure; anything else falls back to copying.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    if (await copyText(url)) toast.success(SHARE_MESSAGES.linkCopied);
    else toast.error(SHARE_MESSAGES.copyFailed);
  }

  return (
    <button
      type="button"
      onClick={() => void share()}
      className={cx(
        'inline-flex h-11 min-w-11 items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 shadow-sm transition-colors hover:border-slate-400 hover:bg-slate-50',
        className,
      )}
    >
      <ShareIcon />
      {SHARE_MESSAGES.share}
      <span className="sr-only"> {listing.name}</span>
    </button>
  );
}
