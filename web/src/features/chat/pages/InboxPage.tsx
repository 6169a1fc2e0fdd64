import { useId } from 'react';
import { SearchIcon } from '../../../ui/icons';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';

/**
 * /inbox (spec §2): 'Search chats' filter and the list of rooms.
 * TODO(chat feature): GET /api/chats, rows, empty state 'No chats yet.', Close button.
 */
export default function InboxPage() {
  useDocumentTitle('Chats');
  const searchId = useId();
  return (
    <PageContainer>
      <PageHeader title="Chats" />
      <div className="relative max-w-sm">
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
          placeholder="Search chats"
          className="h-11 w-full rounded-xl border border-slate-300 bg-white pr-4 pl-10 text-base focus:border-brand-600 focus:ring-4 focus:ring-brand-100 focus:outline-none sm:text-sm"
        />
      </div>
    </PageContainer>
  );
}
