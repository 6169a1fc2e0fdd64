import { Fragment, useCallback, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { ChatMessage } from '@campus/contract';
import { chatImageUrl, type ChatListingRef } from '../../../api/chat';
import { cx } from '../../../ui/cx';
import { AlertIcon, RetryIcon, TagIcon } from '../../../ui/icons';
import { formatFullTime, formatMessageTime } from '../model';
import type { OutboxItem } from '../outbox';
import { ReportButton } from '../../safety/ReportDialog';
import { ScamWarning } from '../../safety/ScamWarning';
import { useTimeBasis } from '../../../ui/timeBasis';

/** Within this distance of the bottom, the list follows new messages. */
const PIN_SLACK_PX = 120;

function MessageImage({ url, onLoad }: { url: string; onLoad: () => void }) {
  const src = chatImageUrl(url);
  return (
    <a
      href={src}
      target="_blank"
      rel="noopener noreferrer"
      className="block overflow-hidden rounded-xl focus-visible:outline-offset-2"
      aria-label="Open the photo full size"
    >
      {/* Spec §2: at most 12rem on phones, 20rem from md, 24rem from lg. */}
      <img
        src={src}
        alt="Photo sent in the chat"
        onLoad={onLoad}
        className="block max-h-48 max-w-48 rounded-xl bg-slate-200 object-contain md:max-h-80 md:max-w-80 lg:max-h-96 lg:max-w-96"
      />
    </a>
  );
}

function Bubble({
  own,
  children,
  meta,
  pending,
  after,
}: {
  own: boolean;
  children: ReactNode;
  meta: ReactNode;
  pending?: boolean;
  /** Shown under the bubble (the anti-scam warning card). */
  after?: ReactNode;
}) {
  return (
    <li className={cx('flex', own ? 'justify-end pl-10 sm:pl-20' : 'justify-start pr-10 sm:pr-20')}>
      <div className={cx('flex max-w-full min-w-0 flex-col gap-1', own ? 'items-end' : 'items-start')}>
        <div
          className={cx(
            'max-w-full min-w-0 rounded-2xl px-3.5 py-2 text-[0.95rem] leading-relaxed shadow-xs',
            own
              ? 'rounded-br-md bg-brand-700 text-white'
              : 'rounded-bl-md border border-slate-200 bg-white text-slate-900',
            pending && 'opacity-75',
          )}
        >
          {children}
        </div>
        {after}
        <div className="flex items-center gap-2 px-1 text-xs text-slate-500">{meta}</div>
      </div>
    </li>
  );
}

/**
 * one thread per pair of students, so each change of listing is marked where it
 * happens, with the listing's name and thumbnail.
 */
function ListingDivider({ listing }: { listing: ChatListingRef | null | undefined }) {
  return (
    <li className="flex items-center gap-3 py-1" aria-label={`About ${listing?.name ?? 'another listing'}`}>
      <span aria-hidden="true" className="h-px flex-1 bg-slate-300" />
      <span className="flex max-w-[80%] min-w-0 items-center gap-2 rounded-full border border-slate-200 bg-white py-1 pr-3 pl-1 text-xs font-semibold text-slate-700 shadow-xs">
        {listing?.thumbnailUrl ? (
          <img
            src={chatImageUrl(listing.thumbnailUrl)}
            alt=""
            className="h-6 w-6 shrink-0 rounded-full object-cover"
          />
        ) : (
          <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <TagIcon size={14} />
          </span>
        )}
        <span className="truncate">
          About: {listing === undefined ? 'loading…' : (listing?.name ?? 'a listing that was removed')}
        </span>
      </span>
      <span aria-hidden="true" className="h-px flex-1 bg-slate-300" />
    </li>
  );
}

function Body({
  content,
  url,
  onImageLoad,
}: {
  content: string;
  url: string | null;
  onImageLoad: () => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      {url && <MessageImage url={url} onLoad={onImageLoad} />}
      {content.trim() !== '' && (
        // Line breaks kept; long words and links wrap instead of overflowing.
        <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{content}</p>
      )}
    </div>
  );
}

export interface MessageListProps {
  messages: readonly ChatMessage[];
  pending: readonly OutboxItem[];
  myId: number | null;
  peerName: string;
  loading: boolean;
  connected: boolean;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
  empty: ReactNode;
  /** 'Load earlier messages' when the history has older pages. */
  older?: { loading: boolean; load: () => void } | null;
  /** Listings the thread talks about, by id (null: gone; missing: still loading) for dividers. */
  listings?: ReadonlyMap<number, ChatListingRef | null>;
  /**
   * Renders a message that is not a text bubble (deal cards and system lines, features.md §A) as
   * an <li>; null leaves it to the bubble. Kept outside so the chat does not depend on deals.
   */
  renderSpecial?: (message: ChatMessage) => ReactNode | null;
}

/**
 * The conversation (spec §2): role=log, newest at the bottom, auto-scrolled to the newest while the
 * reader is at the bottom (and always for their own messages); own messages right, the peer's left.
 */
export function MessageList({
  messages,
  pending,
  myId,
  peerName,
  loading,
  connected,
  onRetry,
  onDiscard,
  empty,
  older,
  listings,
  renderSpecial,
}: MessageListProps) {
  const basis = useTimeBasis();
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const seen = useRef({ count: 0, pending: 0 });

  const scrollToEnd = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < PIN_SLACK_PX;
  };

  // New messages: follow them if the reader was at the bottom, or if it is their own new message.
  useLayoutEffect(() => {
    const grewPending = pending.length > seen.current.pending;
    const first = seen.current.count === 0 && messages.length > 0;
    seen.current = { count: messages.length, pending: pending.length };
    if (first || grewPending || pinned.current) {
      scrollToEnd();
      pinned.current = true;
    }
  }, [messages.length, pending.length, scrollToEnd, messages]);

  // Photos change the height once loaded: stay at the bottom if we were there.
  const onImageLoad = useCallback(() => {
    if (pinned.current) scrollToEnd();
  }, [scrollToEnd]);

  // The visible area shrinks when the on-screen keyboard opens or the attach panel shows.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (pinned.current) scrollToEnd();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollToEnd]);

  const nothing = !loading && messages.length === 0 && pending.length === 0;

  return (
    // Focusable and named, so a keyboard alone can scroll a thread with nothing to tab to (a
    // finished deal's chat: axe `scrollable-region-focusable`).
    <div
      ref={scroller}
      onScroll={onScroll}
      tabIndex={0}
      role="region"
      aria-label={`Message history with ${peerName}`}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-3 py-4 outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-inset sm:px-5"
    >
      {loading && messages.length === 0 && (
        <p className="py-10 text-center text-sm text-slate-500" role="status">
          Loading messages…
        </p>
      )}
      {nothing && empty}
      {older && (
        <div className="mb-3 flex justify-center">
          <button
            type="button"
            onClick={older.load}
            disabled={older.loading}
            className="rounded-full border border-slate-300 bg-white px-3 py-1.5 text-xs font-semibold text-slate-700 shadow-xs hover:bg-slate-50 disabled:opacity-60"
          >
            {older.loading ? 'Loading…' : 'Load earlier messages'}
          </button>
        </div>
      )}
      {/* role=log on a wrapper keeps the list's ol/li semantics. */}
      <div role="log" aria-live="polite" aria-relevant="additions" aria-label={`Messages with ${peerName}`}>
        <ol className="flex flex-col gap-3">
          {messages.map((m, i) => {
            const own = m.senderId === myId;
            const previous = i > 0 ? messages[i - 1]!.listingId : null;
            const divider = listings && m.listingId !== null && m.listingId !== previous;
            const special = renderSpecial?.(m) ?? null;
            // The server flags what the other student typed: messages, and a meet-up card's place.
            const warning = !own && m.flags && m.flags.length > 0 ? <ScamWarning flags={m.flags} /> : null;
            return (
              <Fragment key={m.id}>
                {divider && <ListingDivider listing={listings.get(m.listingId!)} />}
                {special !== null && (
                  <>
                    {special}
                    {/* Under the card (an <li> of its own), aligned like the other student's card. */}
                    {warning && <li className="-mt-2 flex justify-start pr-6 sm:pr-20">{warning}</li>}
                  </>
                )}
                {special === null && (
                  <Bubble
                    own={own}
                    after={warning}
                    meta={
                      <>
                        <span className="sr-only">{own ? 'You' : peerName}, </span>
                        <time dateTime={m.sentAt} title={formatFullTime(m.sentAt, basis)}>
                          {formatMessageTime(m.sentAt, basis)}
                        </time>
                        {!own && (
                          <ReportButton
                            targetType="MESSAGE"
                            targetId={m.id}
                            ariaLabel={`Report message from ${peerName} sent ${formatFullTime(m.sentAt, basis)}`}
                            // Negative margins: the 44 px (24 px from md) target overlaps the gap around
                            // the meta line instead of making every message taller.
                            className="-my-3.5 rounded px-1 text-xs font-semibold text-slate-500 underline decoration-slate-300 underline-offset-2 hover:text-red-700 md:-my-1"
                          />
                        )}
                      </>
                    }
                  >
                    <Body content={m.content} url={m.url} onImageLoad={onImageLoad} />
                  </Bubble>
                )}
              </Fragment>
            );
          })}
          {pending.map((p, i) => {
            const previous =
              i > 0 ? pending[i - 1]!.listingId : (messages[messages.length - 1]?.listingId ?? null);
            const divider = listings && p.listingId !== previous;
            return (
              <Fragment key={p.clientId}>
                {divider && <ListingDivider listing={listings.get(p.listingId)} />}
                <Bubble
                  own
                  pending={p.status !== 'failed'}
                  meta={
                    p.status === 'failed' ? (
                      <span className="flex flex-wrap items-center justify-end gap-x-3 gap-y-1 font-medium text-red-700">
                        <span className="inline-flex items-center gap-1">
                          <AlertIcon size={14} /> Not sent{p.error ? `: ${p.error}` : ''}
                        </span>
                        <button
                          type="button"
                          onClick={() => onRetry(p.clientId)}
                          className="inline-flex items-center gap-1 rounded font-semibold text-brand-700 underline hover:text-brand-800"
                        >
                          <RetryIcon size={14} /> Retry
                        </button>
                        <button
                          type="button"
                          onClick={() => onDiscard(p.clientId)}
                          className="rounded font-semibold text-slate-600 underline hover:text-slate-800"
                        >
                          Discard
                        </button>
                      </span>
                    ) : p.status === 'sent' ? (
                      <span>Sent</span>
                    ) : (
                      <span className="inline-flex items-center gap-1.5">
                        <span
                          aria-hidden="true"
                          className="h-1.5 w-1.5 animate-pulse rounded-full bg-slate-400"
                        />
                        {connected ? 'Sending…' : 'Sending… (waiting for the connection)'}
                      </span>
                    )
                  }
                >
                  <Body content={p.content} url={p.url} onImageLoad={onImageLoad} />
                </Bubble>
              </Fragment>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
