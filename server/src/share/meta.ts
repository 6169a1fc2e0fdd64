/**
 * The link-preview tags of a page (Open Graph, Twitter): what a chat app or social site shows for a
 * shared link. They are in the HTML the server sends to a client without a session — preview bots
 * carry no cookie and run no JavaScript. A listing's page previews the listing when its campus
 * allows it (preview.ts); every other page, and a listing that may not be previewed, keeps the
 * shell's generic Campus Market tags.
 */
import { isDbId, previewDescription, SHARE_MESSAGES } from '@campus/contract';
import { escapeHtml } from '../http/html.js';
import type { SharedListing } from './preview.js';

/** The listing page's path (contract PAGE_PATHS `/single_listing/:id`, any case, optional slash). */
const LISTING_PAGE = /^\/single_listing\/([^/]+)\/?$/i;

/**
 * For a listing page's path, its listing id — 0 for an id no listing can have (the page shows its
 * not-found screen) — or null for any other path.
 */
export function listingIdOfPage(pathname: string): number | null {
  const m = LISTING_PAGE.exec(pathname);
  if (!m) return null;
  const raw = m[1]!;
  const id = Number(raw);
  return /^\d{1,15}$/.test(raw) && isDbId(id) ? id : 0;
}

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute. */
  url: string;
  /** Absolute, or null. */
  image: string | null;
  imageAlt: string | null;
}

/** The listing's preview: its name, one line of price, condition and campus, the cover photo. */
export function listingMeta({ preview, baseUrl }: SharedListing): PageMeta {
  return {
    title: preview.name,
    description: previewDescription(preview),
    url: `${baseUrl}/single_listing/${preview.id}`,
    // On disk the photo is the app's own (/uploads/…); in a bucket it is already absolute.
    image: preview.imageUrl ? new URL(preview.imageUrl, `${baseUrl}/`).href : null,
    imageAlt: preview.imageUrl ? preview.name : null,
  };
}

/** The generic Campus Market card, for a page with nothing it may preview. */
export function genericMeta(baseUrl: string, pathname: string): PageMeta {
  return {
    title: SHARE_MESSAGES.siteName,
    description: SHARE_MESSAGES.genericDescription,
    url: baseUrl + pathname,
    image: `${baseUrl}/icons/icon-512.png`,
    imageAlt: null,
  };
}

function tags(meta: PageMeta, large: boolean): string {
  const property = (name: string, value: string) =>
    `<meta property="${name}" content="${escapeHtml(value)}">`;
  const named = (name: string, value: string) => `<meta name="${name}" content="${escapeHtml(value)}">`;
  const out = [
    `<title>${escapeHtml(meta.title)}</title>`,
    named('description', meta.description),
    property('og:site_name', SHARE_MESSAGES.siteName),
    property('og:type', 'website'),
    property('og:title', meta.title),
    property('og:description', meta.description),
    property('og:url', meta.url),
    `<link rel="canonical" href="${escapeHtml(meta.url)}">`,
  ];
  if (meta.image) out.push(property('og:image', meta.image));
  if (meta.image && meta.imageAlt) out.push(property('og:image:alt', meta.imageAlt));
  out.push(
    named('twitter:card', large ? 'summary_large_image' : 'summary'),
    named('twitter:title', meta.title),
    named('twitter:description', meta.description),
  );
  if (meta.image) out.push(named('twitter:image', meta.image));
  return out.join('');
}

const TITLE = /<title>[^<]*<\/title>\s*/i;
const DESCRIPTION = /<meta\s+name="description"[^>]*>\s*/i;
const PREVIEW_TAGS = /<meta\s+(?:property="og:[^"]*"|name="twitter:[^"]*")[^>]*>\s*/gi;

/**
 * The page with `meta`'s tags in its head instead of the shell's title, description and preview
 * tags. `large`: a listing with a photo gets the large-image card.
 */
export function withPageMeta(html: string, meta: PageMeta, large: boolean): string {
  const head = html.indexOf('</head>');
  if (head < 0) return html;
  const before = html.slice(0, head).replace(TITLE, '').replace(DESCRIPTION, '').replace(PREVIEW_TAGS, '');
  return before + tags(meta, large) + html.slice(head);
}
