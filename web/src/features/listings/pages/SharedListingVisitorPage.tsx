import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import {
  CONDITION_LABELS,
  formatDollars,
  SHARE_MESSAGES,
  type ImageVariantFormat,
  type ImageVariants,
  type ListingPreview,
} from '@campus/contract';
import { api, apiUrl } from '../../../api/client';
import { nextQuery } from '../../../session/returnTo';
import { ButtonLink } from '../../../ui/Button';
import { CategoryIcon, ChatIcon, CheckIcon, PinIcon, TagIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';

/** GET /public/listings/{id}/preview: what a shared link shows someone who is not logged in. */
function getListingPreview(id: number, signal?: AbortSignal): Promise<ListingPreview> {
  return api.get<ListingPreview>(`/public/listings/${id}/preview`, { signal, auth: false });
}

/** `srcset` of one format (contract `variantSrcset`, on the API's origin). */
function srcsetOf(variants: ImageVariants, format: ImageVariantFormat): string {
  return variants.widths
    .map((w) => `${apiUrl(variants.url.replace('{width}', String(w)).replace('{format}', format))} ${w}w`)
    .join(', ');
}

/** The listing id of a `/single_listing/:id` path (0 for one no listing has). */
function idOf(pathname: string): number {
  const raw = /^\/single_listing\/(\d{1,10})\/?$/i.exec(pathname)?.[1];
  return raw ? Number(raw) : 0;
}

/**
 * The photo, name, price, condition and campus. Drawn here rather than with the listing page's
 * components, so that this chunk shares none of theirs and the dashboard's first visit stays as it
 * was (the bundler would split their common chunk).
 */
function PreviewCard({ preview }: { preview: ListingPreview }) {
  // A variant not made yet (just uploaded to a bucket): the plain JPEG instead.
  const [plain, setPlain] = useState(false);
  const variants = plain ? null : preview.imageVariants;
  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:gap-10">
      <div className="relative aspect-[4/3] w-full overflow-hidden rounded-2xl bg-slate-100">
        {preview.imageUrl ? (
          <picture>
            {variants?.formats.map((format) => (
              <source
                key={format}
                type={`image/${format}`}
                srcSet={srcsetOf(variants, format)}
                sizes="(min-width: 1024px) 640px, 100vw"
              />
            ))}
            <img
              src={apiUrl(preview.imageUrl)}
              onError={() => setPlain(true)}
              alt={preview.name}
              width={1280}
              height={960}
              fetchPriority="high"
              className="absolute inset-0 h-full w-full object-cover"
            />
          </picture>
        ) : (
          <div
            role="img"
            aria-label={`${preview.name} (no photo)`}
            className="absolute inset-0 flex items-center justify-center text-slate-500"
          >
            <CategoryIcon category={preview.category} size={48} />
          </div>
        )}
        {preview.status === 'SOLD' && (
          <span className="absolute top-4 left-4 rounded-full bg-slate-900/85 px-3 py-1 text-sm font-bold tracking-wide text-white uppercase">
            Sold
          </span>
        )}
      </div>
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
          {preview.name}
        </h1>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <p className="text-3xl font-bold text-brand-800 tabular-nums">
            {preview.price === 0 ? 'Free' : formatDollars(preview.price)}
          </p>
          {preview.condition && (
            <span className="rounded-full border border-emerald-200 bg-emerald-50 px-2.5 py-1 text-sm font-semibold text-emerald-800">
              <span className="sr-only">Condition: </span>
              {CONDITION_LABELS[preview.condition]}
            </span>
          )}
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
