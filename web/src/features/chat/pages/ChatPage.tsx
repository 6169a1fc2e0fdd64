import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router';
import { LIMITS, MESSAGES, type ChatMessage } from '@campus/contract';
import {
  chatDestinations,
  chatImageUrl,
  chatKeys,
  getChatListing,
  getOlderChatMessages,
  parseChatMessage,
  type ChatListingRef,
} from '../../../api/chat';
import { ApiError } from '../../../api/client';
import { queryClient } from '../../../api/queryClient';
import {
  acquireRealtime,
  onRealtimeConnected,
  subscribeRealtime,
  useRealtimeStatus,
} from '../../../api/stomp';
import { useCurrentUser } from '../../../session/useCurrentUser';
import { ButtonLink } from '../../../ui/Button';
import { EmptyState } from '../../../ui/EmptyState';
import { AlertIcon, ChatIcon } from '../../../ui/icons';
import { TopBar } from '../../../ui/TopBar';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { BlockedNote } from '../../safety/BlockButton';
import { ChatHeader } from '../components/ChatHeader';
import { Composer } from '../components/Composer';
import { ConnectionBanner } from '../components/ConnectionBanner';
import { MessageList } from '../components/MessageList';
import { RoomListPanel } from '../components/RoomList';
import { fullName, mergeMessages, readChatNavState, type ChatNavState } from '../model';
import { discardMessage, enqueueMessage, retryMessage, useOutbox } from '../outbox';
import { ingestMessages, markRoomOpen, markRoomRead, roomMessagesQuery } from '../store';
import { useChatContext, type ChatContext } from '../useChatContext';
import { ChatPresenceLine, useTypingSignal } from '../../notifications/ChatPresence';

/** Keeps the room's history current: live MESSAGE frames, plus `?after=` catch-up on every (re)connect. */
function useRoomMessages(roomId: string, seed: ChatMessage[] | undefined) {
  const query = useQuery({
    ...roomMessagesQuery(roomId),
    initialData: seed,
    // Marked stale at once: opening always catches up with `?after=` the newest seed message.
    initialDataUpdatedAt: 0,
    refetchOnWindowFocus: true,
  });
  const { refetch } = query;

  useEffect(() => acquireRealtime(), []);
  useEffect(() => markRoomOpen(roomId), [roomId]);

  useEffect(() => {
    const unsubscribe = subscribeRealtime(chatDestinations.room(roomId), (body) => {
      const message = parseChatMessage(body);
      if (!message || message.roomId !== roomId) return;
      if (queryClient.getQueryData(chatKeys.messages(roomId)) === undefined) {
        // First load still running: it may have started before this message was stored.
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(roomId) });
      } else {
        ingestMessages(roomId, [message]);
      }
    });
    const offConnected = onRealtimeConnected(() => void refetch());
    return () => {
      offConnected();
      unsubscribe();
    };
  }, [roomId, refetch]);

  return query;
}

/** Long histories arrive newest page first (200); older pages load on request (`?before=`). */
function useOlderMessages(roomId: string, messages: readonly ChatMessage[] | undefined) {
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const first = messages?.[0];
  const available = !done && first !== undefined && (messages?.length ?? 0) >= LIMITS.chatPageDefault;
  const load = async () => {
    if (!first || loading) return;
    setLoading(true);
    try {
      const older = await getOlderChatMessages(roomId, first.id);
      if (older.length < LIMITS.chatPageDefault) setDone(true);
      queryClient.setQueryData<ChatMessage[]>(chatKeys.messages(roomId), (old) =>
        mergeMessages(old ?? [], older),
      );
    } catch (error) {
      console.error('Could not load earlier messages', error);
    } finally {
      setLoading(false);
    }
  };
  return { available, loading, load };
}

/** Marks the room read on open and whenever a new message of the peer shows while the tab is visible. */
function useMarkRead(roomId: string, messages: readonly ChatMessage[] | undefined, myId: number | null) {
  const marked = useRef(-1);
  let lastPeerId = 0;
  if (messages) {
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!;
      if (m.senderId !== myId) {
        lastPeerId = m.id;
        break;
      }
    }
  }
  const hasMessages = (messages?.length ?? 0) > 0;

  useEffect(() => {
    if (!hasMessages || myId === null) return;
    const mark = () => {
      if (document.visibilityState !== 'visible') return;
      if (marked.current !== -1 && lastPeerId <= marked.current) return;
      marked.current = lastPeerId;
      markRoomRead(roomId).catch((error: unknown) => {
        marked.current = -1;
        console.error('Could not mark the chat read', error);
      });
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [roomId, lastPeerId, hasMessages, myId]);
}

/**
 * The listings a thread talks about (issue 14 item 18), for its dividers: id → name and thumbnail,
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

/** While the chat is open, toasts open below its header (index.css), not over it (issue 14 item 15). */
function useChatScreenMarker() {
  useEffect(() => {
    document.body.dataset.screen = 'chat';
    return () => {
      delete document.body.dataset.screen;
    };
  }, []);
}

function Conversation({ ctx, nav, roomId }: { ctx: ChatContext; nav: ChatNavState; roomId: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { roomidCreate } = useParams();
  const status = useRealtimeStatus();
  const seed = nav.history && (nav.roomkey === undefined || nav.roomkey === roomId) ? nav.history : undefined;
  const messagesQuery = useRoomMessages(roomId, seed);
  const messages = messagesQuery.data;
  const pending = useOutbox(roomId);
  const older = useOlderMessages(roomId, messages);
  useMarkRead(roomId, messages, ctx.myId);
  const onTyping = useTypingSignal(roomId);

  const peerName = fullName(ctx.peer);
  useDocumentTitle(peerName ? `Chat with ${peerName}` : 'Chat');

  const canSend =
    ctx.myId !== null && ctx.buyerId !== null && ctx.sellerId !== null && ctx.listingId !== null;

  const onSend = useCallback(
    ({ content, url }: { content: string; url: string | null }) => {
      if (!canSend) return;
      enqueueMessage({
        roomId,
        buyerId: ctx.buyerId!,
        sellerId: ctx.sellerId!,
        senderId: ctx.myId!,
        listingId: ctx.listingId!,
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
      ctx.listingId,
      roomidCreate,
      location.state,
      navigate,
    ],
  );

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

  const firstName = ctx.peer?.firstName || 'them';
  return (
    <>
      <ChatHeader
        peer={ctx.peer}
        peerId={ctx.peerId}
        listing={headerListing}
        onClose={() => navigate('/inbox')}
      />
      <ConnectionBanner status={status} pendingCount={pending.filter((p) => p.status !== 'failed').length} />
      {messagesQuery.isError && !messages && (
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
      <MessageList
        messages={messages ?? []}
        pending={pending}
        myId={ctx.myId}
        peerName={peerName || 'the other student'}
        loading={messagesQuery.isPending}
        connected={status === 'connected'}
        onRetry={retryMessage}
        onDiscard={discardMessage}
        older={older.available ? { loading: older.loading, load: () => void older.load() } : null}
        listings={listings}
        empty={
          <div className="mx-auto my-8 max-w-sm rounded-2xl bg-white px-5 py-6 text-center shadow-card">
            <span className="mx-auto mb-3 flex h-11 w-11 items-center justify-center rounded-full bg-brand-50 text-brand-700">
              <ChatIcon />
            </span>
            <p className="font-semibold text-slate-900">Say hello to {firstName}</p>
            <p className="mt-1 text-sm text-slate-600">
              Ask about the condition, agree on a price and pick a meetup spot on campus.
            </p>
          </div>
        }
      />
      {ctx.peerId !== null && <BlockedNote userId={ctx.peerId} name={peerName || 'this student'} />}
      <ChatPresenceLine roomId={roomId} myId={ctx.myId} messages={messages ?? []} peerName={firstName} />
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
 */
export default function ChatPage() {
  const { roomidCreate } = useParams();
  const location = useLocation();
  const nav = useMemo(() => readChatNavState(location.state), [location.state]);
  const { userId } = useCurrentUser();
  const ctx = useChatContext(roomidCreate, nav, userId);
  useChatScreenMarker();

  let content;
  if (ctx.loading) {
    content = (
      <p role="status" className="flex flex-1 items-center justify-center text-sm text-slate-500">
        Loading the conversation…
      </p>
    );
  } else if (ctx.problem || !ctx.roomId) {
    content = <Problem ctx={ctx} />;
  } else {
    content = <Conversation key={ctx.roomId} ctx={ctx} nav={nav} roomId={ctx.roomId} />;
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
