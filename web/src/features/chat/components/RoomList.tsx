import { useId, useMemo, useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { MESSAGES, type ChatRoomSummary } from '@campus/contract';
import { chatImageUrl } from '../../../api/chat';
import { queryClient } from '../../../api/queryClient';
import { ButtonLink } from '../../../ui/Button';
import { cx } from '../../../ui/cx';
import { EmptyState } from '../../../ui/EmptyState';
import { ChatIcon, ImageIcon, SearchIcon } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { useMyUserId } from '../../../session/useCurrentUser';
import { formatFullTime, formatRoomTime, fullName, type ChatNavState } from '../model';
import { roomPreview } from '../roomPreview';
import { roomMessagesQuery } from '../store';
import { useChatRooms } from '../useChatRooms';
import { Avatar } from './Avatar';
import { useTimeBasis } from '../../../ui/timeBasis';

/** Spec §2: the inbox search filters rooms by the peer's full name, case-insensitive. */
export function filterRooms(rooms: readonly ChatRoomSummary[], query: string): ChatRoomSummary[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...rooms];
  return rooms.filter((r) => fullName(r.peer).toLowerCase().includes(q));
}

function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="inline-flex min-w-6 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs leading-6 font-bold text-white">
      {count > 99 ? '99+' : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}

/**
 * Opening a room (spec §2): load its history, then go to /chat/{roomKey} with buyerId, sellerId,
 * history, roomkey, listingId and the listing in the navigation state.
 */
function useOpenRoom() {
  const navigate = useNavigate();
  const location = useLocation();
  const [opening, setOpening] = useState<string | null>(null);
  const open = async (room: ChatRoomSummary) => {
    setOpening(room.id);
    let history: ChatNavState['history'] = [];
    try {
      history = await queryClient.fetchQuery(roomMessagesQuery(room.id));
    } catch (error) {
      console.error('Could not load the chat history', error); // spec §8: only logged
    } finally {
      setOpening(null);
    }
    const state: ChatNavState = {
      from: location.pathname,
      buyerId: room.buyerId,
      sellerId: room.sellerId,
      roomkey: room.roomKey,
      history,
    };
    if (room.listingId !== null) state.listingId = room.listingId;
    if (room.listing) state.listing = room.listing;
    navigate(`/chat/${room.roomKey}`, { state });
  };
  return { open, opening };
}

function RoomRow({
  room,
  active,
  opening,
  onOpen,
}: {
  room: ChatRoomSummary;
  active: boolean;
  opening: boolean;
  onOpen: (room: ChatRoomSummary) => void;
}) {
  const basis = useTimeBasis();
  const name = fullName(room.peer) || 'Student';
  const myId = useMyUserId();
  const preview = roomPreview(room.lastMessage, myId, room.peer.firstName || 'Student');
  const isPhoto = room.lastMessage !== null && !room.lastMessage.content.trim() && !!room.lastMessage.url;
  const unread = room.unreadCount > 0;
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return; // new tab: plain link
    e.preventDefault();
    onOpen(room);
  };
  return (
    <li className="relative">
      <Link
        to={`/chat/${room.roomKey}`}
        onClick={onClick}
        aria-current={active ? 'page' : undefined}
        aria-busy={opening || undefined}
        className={cx(
          'flex gap-3 rounded-xl py-3 pr-3 pl-[4.25rem] transition-colors focus-visible:outline-offset-[-3px]',
          active ? 'bg-brand-50 ring-1 ring-brand-200' : 'hover:bg-slate-100',
        )}
      >
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex items-baseline gap-2">
            <span className={cx('truncate text-slate-900', unread ? 'font-bold' : 'font-semibold')}>
              {name}
            </span>
            {room.lastMessage && (
              <time
                dateTime={room.lastMessage.sentAt}
                title={formatFullTime(room.lastMessage.sentAt, basis)}
                className={cx(
                  'ml-auto shrink-0 text-xs',
                  unread ? 'font-semibold text-brand-700' : 'text-slate-600',
                )}
              >
                {formatRoomTime(room.lastMessage.sentAt, basis)}
              </time>
            )}
          </span>
          {room.listing && (
            <span className="flex min-w-0 items-center gap-1.5 text-xs text-slate-600">
              {room.listing.thumbnailUrl ? (
                <img
                  src={chatImageUrl(room.listing.thumbnailUrl)}
                  alt=""
                  loading="lazy"
                  className="h-5 w-5 shrink-0 rounded object-cover"
                />
              ) : null}
              <span className="truncate">{room.listing.name}</span>
            </span>
          )}
          <span className="flex items-center gap-2">
            <span
              className={cx(
                'flex min-w-0 flex-1 items-center gap-1 truncate text-sm',
                unread ? 'font-medium text-slate-900' : 'text-slate-600',
              )}
            >
              {isPhoto && <ImageIcon size={15} className="shrink-0" />}
              <span className="truncate">{preview}</span>
            </span>
            {opening ? (
              <Spinner size="sm" label="Opening…" className="text-brand-700" />
            ) : (
              <UnreadBadge count={room.unreadCount} />
            )}
          </span>
          <span className="text-xs text-slate-600">
            {room.messageCount} {room.messageCount === 1 ? 'Message' : 'Messages'}
          </span>
        </span>
      </Link>
      {/* The avatar opens the peer's profile; it sits over the row link's left padding (links cannot nest) and comes after it, so the row stays the first stop. */}
      {/* The initials are decoration here: the link's name is the hidden text (label-in-name). */}
      <Link to={`/u/${room.peer.id}`} className="absolute top-3 left-3 z-10 rounded-full">
        <span aria-hidden="true">
          <Avatar id={room.peer.id} firstName={room.peer.firstName} lastName={room.peer.lastName} />
        </span>
        <span className="sr-only">{`${name}'s profile`}</span>
      </Link>
    </li>
  );
}

/** The 'Search chats' box and the rooms (inbox page, and the chat screen's side column on desktop). */
export function RoomListPanel({
  activeRoomId,
  className,
}: {
  activeRoomId?: string | null;
  className?: string;
}) {
  const rooms = useChatRooms();
  const [query, setQuery] = useState('');
  const searchId = useId();
  const { open, opening } = useOpenRoom();
  const visible = useMemo(() => filterRooms(rooms.data ?? [], query), [rooms.data, query]);

  let body;
  if (rooms.isPending) {
    body = (
      <div className="flex justify-center py-12 text-brand-700">
        <Spinner size="lg" label="Loading chats…" />
      </div>
    );
  } else if (rooms.isError && !rooms.data) {
    body = (
      <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        Could not load your chats.{' '}
        <button type="button" onClick={() => void rooms.refetch()} className="font-semibold underline">
          Try again
        </button>
      </div>
    );
  } else if ((rooms.data ?? []).length === 0) {
    body = (
      <EmptyState
        icon={<ChatIcon />}
        title={MESSAGES.chatEmpty}
        description="Find something you like and tap 'Chat with the seller' to start a conversation."
        action={
          <ButtonLink to="/all_listings" variant="secondary" size="sm">
            Browse listings
          </ButtonLink>
        }
      />
    );
  } else if (visible.length === 0) {
    body = (
      <p className="px-3 py-8 text-center text-sm text-slate-600" role="status">
        No chats match “{query.trim()}”.
      </p>
    );
  } else {
    body = (
      <ul className="space-y-1" aria-label="Conversations">
        {visible.map((room) => (
          <RoomRow
            key={room.id}
            room={room}
            active={room.id === activeRoomId}
            opening={opening === room.id}
            onOpen={(r) => void open(r)}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className={cx('flex min-h-0 flex-col', className)}>
      <div className="relative mb-3 shrink-0">
        <label htmlFor={searchId} className="sr-only">
          Search chats
        </label>
        <SearchIcon
          size={18}
          className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-slate-500"
        />
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search chats"
          autoComplete="off"
          className="h-11 w-full rounded-xl border border-slate-300 bg-white pr-4 pl-10 text-base focus:border-brand-600 focus:ring-4 focus:ring-brand-100 focus:outline-none sm:text-sm"
        />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">{body}</div>
    </div>
  );
}
