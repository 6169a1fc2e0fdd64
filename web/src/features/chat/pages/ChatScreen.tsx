import { Fragment, useCallback, useEffect, useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router';
import { MESSAGES } from '@campus/contract';
import { chatImageUrl, chatKeys, getChatListing, type ChatListingRef } from '../../../api/chat';
import { ApiError } from '../../../api/client';
import { useRealtimeStatus } from '../../../api/stomp';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { AlertIcon, ChatIcon } from '../../../ui/icons';
import { TopBar } from '../../../ui/TopBar';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { useOnline } from '../../../ui/useOnline';
import { BlockedNote } from '../../safety/BlockButton';
import { ChatHeader } from '../components/ChatHeader';
import { Composer } from '../components/Composer';
import { ConnectionBanner } from '../components/ConnectionBanner';
import { MessageList } from '../components/MessageList';
import { OfflineChat } from '../components/OfflineChat';
import { RoomListPanel } from '../components/RoomList';
import { fullName, readChatNavState, type ChatNavState } from '../model';
import { discardMessage, enqueueMessage, retryMessage, useOutbox } from '../outbox';
import { useMarkRead, useOlderMessages, useRoomMessages } from '../roomHooks';
import { useChatContext, type ChatContext } from '../useChatContext';
import { ChatPresenceLine, useTypingSignal } from '../../notifications/ChatPresence';
import { OfflineRoomParts, useRoomParts, type RoomKind } from '../roomKinds';

/**
 * The listings a thread talks about, for its dividers: id → name and thumbnail,
 * null when the listing is gone, missing while loading.
 */
function useThreadListings(ids: readonly number[], known: ChatListingRef | null) {
  const unique = [...new Set(ids)];
  const results = useQueries({
    queries: unique.map((id) => ({
      queryKey: chatKeys.listing(id),
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        try {
          return await getChatListing(id, signal);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      },
      staleTime: 10 * 60_000,
      enabled: known?.id !== id,
    })),
  });
  const map = new Map<number, ChatListingRef | null>();
  unique.forEach((id, i) => {
    if (known?.id === id) map.set(id, known);
    else if (results[i]?.data !== undefined) map.set(id, results[i]!.data!);
  });
  return map;
}

/** While the chat is open, toasts open below its header (index.css), not over it. */
function useChatScreenMarker() {
  useEffect(() => {
    document.body.dataset.screen = 'chat';
    return () => {
      delete document.body.dataset.screen;
    };
  }, []);
}

function Conversation({
  ctx,
  nav,
  roomId,
  kinds,
}: {
  ctx: ChatContext;
  nav: ChatNavState;
  roomId: string;
  kinds: readonly RoomKind[];
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const { roomidCreate } = useParams();
  const status = useRealtimeStatus();
  const online = useOnline();
  const seed = nav.history && (nav.roomkey === undefined || nav.roomkey === roomId) ? nav.history : undefined;
  const messagesQuery = useRoomMessages(roomId, seed);
  const messages = messagesQuery.data;
  const pending = useOutbox(roomId);
  const older = useOlderMessages(roomId, messages);
  useMarkRead(roomId, messages, ctx.myId);
  const onTyping = useTypingSignal(roomId);

  const peerName = fullName(ctx.peer);
  useDocumentTitle(peerName ? `Chat with ${peerName}` : 'Chat');

  // The listing the next message is about: the context's, else the thread's latest (a
  // room whose listing was deleted keeps talking about it).
  const sendListingId =
    ctx.listingId ?? (messages ?? []).findLast((m) => m.listingId !== null)?.listingId ?? null;
  const firstName = ctx.peer?.firstName || 'them';
  const canSend =
    ctx.myId !== null && ctx.buyerId !== null && ctx.sellerId !== null && sendListingId !== null;

  const onSend = useCallback(
    ({ content, url }: { content: string; url: string | null }) => {
      if (!canSend) return;
      enqueueMessage({
        roomId,
        buyerId: ctx.buyerId!,
        sellerId: ctx.sellerId!,
        senderId: ctx.myId!,
        listingId: sendListingId!,
        content,
        url,
      });
      // Spec §2: opened without a room id, the first send puts the room key in the address.
      if (roomidCreate !== roomId) {
        const state = typeof location.state === 'object' && location.state !== null ? location.state : {};
        navigate(`/chat/${roomId}`, { replace: true, state: { ...state, roomkey: roomId } });
      }
    },
    [
      canSend,
      roomId,
      ctx.buyerId,
      ctx.sellerId,
      ctx.myId,
      sendListingId,
      roomidCreate,
      location.state,
      navigate,
    ],
  );

  const room = useRoomParts(kinds, {
    roomId,
    listingId: sendListingId,
    messages: messages ?? [],
    loaded: messages !== undefined,
    myId: ctx.myId,
    peerId: ctx.peerId,
    peerFirstName: firstName,
    send: canSend ? (content: string) => onSend({ content, url: null }) : undefined,
  });

  const threadIds = [
    ...(messages ?? []).flatMap((m) => (m.listingId === null ? [] : [m.listingId])),
    ...pending.map((p) => p.listingId),
  ];
  if (ctx.listingId !== null) threadIds.push(ctx.listingId);
  const listings = useThreadListings(threadIds, ctx.listing);
  // The header names the listing of the latest message; the context's listing until there is one.
  const latest: number | undefined =
    pending[pending.length - 1]?.listingId ??
    (messages ?? []).findLast((m) => m.listingId !== null)?.listingId ??
    undefined;
  const headerListing = latest !== undefined ? (listings.get(latest) ?? ctx.listing) : ctx.listing;
  const nextListing = ctx.listingId !== null ? listings.get(ctx.listingId) : undefined;
  const switching = latest !== undefined && ctx.listingId !== null && ctx.listingId !== latest;

  return (
    <>
      <ChatHeader
        peer={ctx.peer}
        peerId={ctx.peerId}
        // A deleted listing has no page to link to: the banner above the composer says so.
        // …and one pinned under the header (the deal's item) is not named twice.
        listing={
          room.listingGone || (headerListing && room.pinned.has(headerListing.id)) ? null : headerListing
        }
        onClose={() => navigate('/inbox')}
      />
      {room.parts.map((part, i) => (
        <Fragment key={i}>{part.belowHeader}</Fragment>
      ))}
      <ConnectionBanner status={status} pendingCount={pending.filter((p) => p.status !== 'failed').length} />
      {messagesQuery.isError && !messages && online && (
        <p
          role="alert"
          className="flex items-center gap-2 border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800"
        >
          <AlertIcon size={16} /> Could not load the messages.
          <button
            type="button"
            className="font-semibold underline"
            onClick={() => void messagesQuery.refetch()}
          >
            Try again
          </button>
        </p>
      )}
      {!messages && !online ? (
        <div className="space-y-4 border-b border-amber-200 bg-amber-50/60 px-4 py-4">
          <p role="status" className="text-center text-sm font-medium text-amber-950">
            {MESSAGES.chatOfflineMessages}
          </p>
          <OfflineRoomParts kinds={kinds} userId={ctx.myId} roomId={roomId} />
        </div>
      ) : null}
      <MessageList
        messages={messages ?? []}
        pending={pending}
        myId={ctx.myId}
        peerName={peerName || 'the other student'}
        // Offline, the first load waits for the network: say so instead of "Loading messages…".
        loading={messagesQuery.isPending && online}
        connected={status === 'connected'}
        onRetry={retryMessage}
        onDiscard={discardMessage}
        older={older.available ? { loading: older.loading, load: () => void older.load() } : null}
        listings={listings}
        renderSpecial={room.renderMessage}
        // "Say hello" only for a history known to be empty (not one that could not load).
        empty={
          messages === undefined ? null : (
            <div className="mx-auto my-8 max-w-sm rounded-2xl bg-white px-5 py-6 text-center shadow-card">
              <span className="mx-auto mb-3 flex h-11 w-11 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <ChatIcon />
              </span>
              <p className="font-semibold text-slate-900">Say hello to {firstName}</p>
              <p className="mt-1 text-sm text-slate-600">
                Ask about the condition, agree on a price and pick a meetup spot on campus.
              </p>
            </div>
          )
        }
      />
      {ctx.peerId !== null && <BlockedNote userId={ctx.peerId} name={peerName || 'this student'} />}
      <ChatPresenceLine roomId={roomId} myId={ctx.myId} messages={messages ?? []} peerName={firstName} />
      {room.parts.map((part, i) => (
        <Fragment key={i}>{part.aboveComposer}</Fragment>
      ))}
      <div className="contents" onInput={onTyping}>
        <Composer
          onSend={onSend}
          disabledReason={canSend ? null : 'Loading the conversation…'}
          notice={
            switching && nextListing ? (
              <p className="mb-2 flex min-w-0 items-center gap-2 rounded-lg bg-brand-50 px-3 py-1.5 text-sm text-brand-900">
                {nextListing.thumbnailUrl && (
                  <img
                    src={chatImageUrl(nextListing.thumbnailUrl)}
                    alt=""
                    className="h-6 w-6 shrink-0 rounded object-cover"
                  />
                )}
                <span className="truncate">
                  Your next message is about <strong>{nextListing.name}</strong>
                </span>
              </p>
            ) : null
          }
        />
      </div>
    </>
  );
}

function Problem({ ctx }: { ctx: ChatContext }) {
  const navigate = useNavigate();
  useDocumentTitle('Chat');
  const content = {
    'no-room': {
      title: 'Pick a conversation',
      text: 'Open one of your chats, or start one from a listing with “Chat with the seller”.',
      to: '/inbox',
      label: 'Go to your chats',
    },
    'not-member': { title: MESSAGES.chatRoomForbidden, text: null, to: '/inbox', label: 'Go to your chats' },
    'unknown-room': {
      title: 'No messages in this conversation yet',
      text: 'Open the listing and tap “Chat with the seller” to start it.',
      to: '/all_listings',
      label: 'Browse listings',
    },
    self: {
      title: MESSAGES.chatSelf,
      text: null,
      to: '/personalListings',
      label: 'View your listings',
    },
    unavailable: {
      title: MESSAGES.chatUnavailable,
      text: MESSAGES.chatUnavailableHint,
      to: '/inbox',
      label: 'Go to your chats',
    },
  }[ctx.problem ?? 'no-room'];
  return (
    <>
      <ChatHeader title="Chat" peer={null} peerId={null} listing={null} onClose={() => navigate('/inbox')} />
      <div className="flex flex-1 items-center justify-center p-4">
        <EmptyState
          icon={<ChatIcon />}
          title={content.title}
          description={content.text}
          action={
            <ButtonLink to={content.to} variant="secondary" size="sm">
              {content.label}
            </ButtonLink>
          }
        />
      </div>
    </>
  );
}

/**
 * /chat and /chat/{roomkey} (spec §2): a full-height conversation. Phones get the whole screen
 * (no top bar; Close goes to /inbox); wide screens keep the top bar and show the rooms beside it.
 * `kinds` are the messages other features render in it (deals' cards), given by the app shell.
 */
export function ChatScreen({ kinds }: { kinds: readonly RoomKind[] }) {
  const { roomidCreate } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const nav = useMemo(() => readChatNavState(location.state), [location.state]);
  const { userId } = useCurrentUser();
  const ctx = useChatContext(roomidCreate, nav, userId);
  const online = useOnline();
  useChatScreenMarker();

  let content;
  if ((ctx.loading || ctx.problem === 'unavailable') && !online) {
    // Reopened without a network (at the meet-up): what the chat needs cannot load until it is back.
    content = (
      <>
        <ChatHeader
          title="Chat"
          peer={null}
          peerId={null}
          listing={null}
          onClose={() => navigate('/inbox')}
        />
        <OfflineChat kinds={kinds} userId={userId} roomId={ctx.roomId} />
      </>
    );
  } else if (ctx.loading) {
    content = (
      <p role="status" className="flex flex-1 items-center justify-center text-sm text-slate-500">
        Loading the conversation…
      </p>
    );
  } else if (ctx.problem || !ctx.roomId) {
    content = <Problem ctx={ctx} />;
  } else {
    content = <Conversation key={ctx.roomId} ctx={ctx} nav={nav} roomId={ctx.roomId} kinds={kinds} />;
  }

  return (
    <div className="flex h-dvh flex-col">
      <div className="hidden md:block">
        <TopBar />
      </div>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto flex min-h-0 w-full max-w-7xl flex-1 outline-none md:px-6 md:py-4 lg:gap-4 lg:px-8"
      >
        <aside
          aria-label="Your chats"
          className="hidden w-80 shrink-0 flex-col rounded-2xl bg-white p-3 shadow-card lg:flex"
        >
          <RoomListPanel activeRoomId={ctx.roomId} className="flex-1" />
        </aside>
        <section
          aria-label="Conversation"
          className="flex min-w-0 flex-1 flex-col overflow-hidden bg-slate-50 md:rounded-2xl md:border md:border-slate-200 md:shadow-card"
        >
          {content}
        </section>
      </main>
    </div>
  );
}
