import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { formatDollars, SHARE_MESSAGES, type ListingPreview } from '@campus/contract';
import { getListingPreview } from '../../../api/listings';
import { nextQuery } from '../../../session/returnTo';
import { ButtonLink } from '../../../ui/Button';
import { ChatIcon, CheckIcon, PinIcon, TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { ConditionChip } from '../components/ConditionChip';
import { ListingImage } from '../components/ListingImage';
import { StatusBadge } from '../components/SoldBadge';

/** The listing id of a `/single_listing/:id` path (0 for one no listing has). */
function idOf(pathname: string): number {
  const raw = /^\/single_listing\/(\d{1,10})\/?$/i.exec(pathname)?.[1];
  return raw ? Number(raw) : 0;
}

function PreviewCard({ preview }: { preview: ListingPreview }) {
  const listing = { isSold: preview.status === 'SOLD', status: preview.status };
  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:gap-10">
      <div className="relative">
        <ListingImage
          src={preview.imageUrl}
          alt={preview.name}
          category={preview.category}
          variants={preview.imageVariants}
          sizes="(min-width: 1024px) 640px, 100vw"
          width={1280}
          height={960}
          priority
          className="aspect-[4/3] w-full rounded-2xl"
        />
        <StatusBadge listing={listing} className="absolute top-4 left-4 px-3 py-1 text-sm" />
      </div>
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
          {preview.name}
        </h1>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <p className="text-3xl font-bold text-brand-800 tabular-nums">{formatDollars(preview.price)}</p>
          <ConditionChip condition={preview.condition} className="px-2.5 py-1 text-sm" />
        </div>
        <p className="mt-3 flex items-center gap-1.5 text-slate-700">
          <PinIcon size={18} className="shrink-0 text-brand-700" />
          On Campus Market at <span className="font-semibold text-slate-900">{preview.campusName}</span>
        </p>
        <LoginPrompt message={SHARE_MESSAGES.visitorPrompt} />
      </div>
    </div>
  );
}

/** The way in: log in (or sign up, verify, log in) and land back on this listing. */
function LoginPrompt({ message }: { message: string }) {
  const { pathname } = useLocation();
  const next = nextQuery(pathname);
  return (
    <section
      aria-labelledby="visitor-prompt"
      className="mt-6 rounded-2xl border border-brand-100 bg-brand-50/60 p-5"
    >
      <div className="flex gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-white text-brand-700 shadow-sm">
          <ChatIcon size={20} />
        </span>
        <h2 id="visitor-prompt" className="self-center font-semibold text-slate-900">
          {message}
        </h2>
      </div>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <ButtonLink to={`/login${next}`} state={{ from: pathname }} size="lg" className="sm:flex-1">
          Log in
        </ButtonLink>
        <ButtonLink to={`/signup${next}`} variant="secondary" size="lg" className="sm:flex-1">
          Create an account
        </ButtonLink>
      </div>
      <p className="mt-4 flex items-start gap-2 text-sm text-slate-600">
        <CheckIcon size={16} className="mt-0.5 shrink-0 text-brand-700" />
        Only students with a verified university e-mail can buy, sell and chat here.
      </p>
    </section>
  );
}

/**
 * A shared listing's page for someone not logged in (the app's guard shows it instead of sending
 * them to /login): the public preview — photo, name, price, campus, never the seller — and the way
 * in, which lands back here. A listing that may not be previewed (unknown, another campus's site,
 * previews off) shows the way in alone.
 */
export default function SharedListingVisitorPage() {
  const { pathname } = useLocation();
  const id = idOf(pathname);
  const query = useQuery({
    queryKey: ['listing-preview', id],
    queryFn: ({ signal }) => getListingPreview(id, signal),
    enabled: id > 0,
    retry: false,
    staleTime: 60_000,
  });
  useDocumentTitle(query.data?.name ?? 'Campus Market');

  return (
    <PageContainer width="default">
      {query.data ? (
        <PreviewCard preview={query.data} />
      ) : query.isPending && id > 0 ? (
        <div className="flex min-h-[40vh] items-center justify-center text-brand-700">
          <Spinner size="lg" label="Loading…" />
        </div>
      ) : (
        <div className="mx-auto max-w-xl">
          <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
            <TagIcon size={24} />
          </span>
          <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
            A listing on Campus Market
          </h1>
          <LoginPrompt message={SHARE_MESSAGES.visitorNoPreview} />
        </div>
      )}
    </PageContainer>
  );
}
