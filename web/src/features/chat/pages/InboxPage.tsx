import { useLocation, useNavigate } from 'react-router';
import { fromPathOf } from '../../../session/returnTo';
import { Button } from '../../../ui/Button';
import { ChatIcon, CloseIcon } from '../../../ui/icons';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { useUnreadCount } from '../../../ui/unread';
import { RoomListPanel } from '../components/RoomList';

/**
 * /inbox (spec §2): 'Search chats' and the rooms with peer, listing, 'N Messages', last message and
 * the real unread count; Close returns to the page the student came from, else /all_listings.
 * On wide screens the list sits left of a prompt to pick a conversation.
 */
export default function InboxPage() {
  const unread = useUnreadCount();
  useDocumentTitle(unread > 0 ? `Chats (${unread})` : 'Chats');
  const location = useLocation();
  const navigate = useNavigate();
  const close = () => navigate(fromPathOf(location.state) ?? '/all_listings');

  return (
    <main
      id="main"
      tabIndex={-1}
      className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-5 outline-none sm:px-6 lg:px-8"
    >
      <div className="mb-4 flex items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          Chats
          {unread > 0 && (
            <span className="ml-2 align-middle text-base font-semibold text-brand-700">{unread} unread</span>
          )}
        </h1>
        <Button variant="secondary" size="sm" onClick={close} leadingIcon={<CloseIcon size={18} />}>
          Close
        </Button>
      </div>
      <div className="grid min-h-0 flex-1 grid-cols-1 gap-6 lg:grid-cols-[24rem_1fr]">
        <section
          aria-label="Conversations"
          className="flex min-h-0 flex-col rounded-2xl bg-white p-3 shadow-card lg:h-[calc(100dvh-10rem)]"
        >
          <RoomListPanel className="flex-1" />
        </section>
        <div className="hidden rounded-2xl border border-dashed border-slate-300 bg-white/60 lg:flex lg:h-[calc(100dvh-10rem)] lg:flex-col lg:items-center lg:justify-center lg:text-center">
          <span className="mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <ChatIcon size={26} />
          </span>
          <p className="text-base font-semibold text-slate-900">Pick a conversation</p>
          <p className="mt-1 max-w-xs text-sm text-slate-600">
            Choose a chat on the left to agree on the price and a pickup spot on campus.
          </p>
        </div>
      </div>
    </main>
  );
}
