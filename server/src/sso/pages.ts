import { SSO_MESSAGES } from '@campus/contract';
import { escapeHtml } from '../http/html.js';

/** What a refusal page says and where its links go. */
export interface RefusalPage {
  /** The campus signing in, or null when the address named none we know. */
  campusName: string | null;
  /** Why the sign-in was refused. */
  message: string;
  /** The campus's log-in page ("Back to log in"). */
  backUrl: string;
  /** The campus's home page (the app name in the header). */
  homeUrl: string;
}

/** The app's logo mark (web/src/ui/Logo.tsx), drawn the same. */
const LOGO_MARK =
  '<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="9" fill="#18453b"/>' +
  '<path d="M9 12.5h14l-1.3 11.2a2 2 0 0 1-2 1.8h-7.4a2 2 0 0 1-2-1.8z" fill="#fff"/>' +
  '<path d="M12.5 12.5V11a3.5 3.5 0 0 1 7 0v1.5" fill="none" stroke="#f8c35a" stroke-width="2" stroke-linecap="round"/></svg>';

/**
 * The app's colours and header (web/src/ui/PublicHeader.tsx: a white bar, the logo and word mark
 * linking home, the campus's name under it), for a page that cannot load the app's stylesheet.
 */
const STYLE = `body{margin:0;background:#f8fafc;font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:#0f172a;-webkit-font-smoothing:antialiased}
header{background:#fff;border-bottom:1px solid #e2e8f0}
.bar{max-width:80rem;margin:0 auto;height:64px;display:flex;align-items:center;padding:0 16px}
@media (min-width:640px){.bar{padding:0 24px}}@media (min-width:1024px){.bar{padding:0 32px}}
a.home{display:inline-flex;align-items:center;gap:10px;min-width:0;padding:4px 0;border-radius:8px;font-weight:700;letter-spacing:-0.025em;text-decoration:none}
a.home svg{width:32px;height:32px;flex-shrink:0}
.name{display:flex;flex-direction:column;gap:2px;min-width:0}
.word{font-size:18px;line-height:1;color:#12362e}.word span{color:#1d735d}
.campus{max-width:15rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:12px;line-height:1.25;font-weight:600;letter-spacing:0;color:#475569}
main{max-width:480px;margin:48px auto;background:#fff;border:1px solid #e2e8f0;border-radius:16px;padding:32px;box-sizing:border-box}
@media (max-width:520px){main{margin:24px 16px;padding:24px}}
h1{font-size:22px;color:#18453b;margin:0 0 12px}p{line-height:1.5}
a.back{display:inline-block;background:#18453b;color:#fff;border-radius:10px;padding:14px 28px;font-size:16px;font-weight:600;text-decoration:none}
a:focus-visible{outline:3px solid #2b8e72;outline-offset:2px}a.back:focus-visible{outline-color:#f0b429}`;

/**
 * The page a refused university sign-in ends on (features.md §G: "anyone else gets a page saying
 * why"). The browser arrived here from the university, not from the web app, so it is a small
 * self-contained HTML page with the app's header, the reason and a way back, never a JSON error.
 */
export function refusalPage({ campusName, message, backUrl, homeUrl }: RefusalPage): string {
  const product = campusName ? `${campusName} Campus Market` : 'Campus Market';
  const campus = campusName ? `<span class="campus">${escapeHtml(campusName)}</span>` : '';
  const homeLabel = campusName ? `CampusMarket ${campusName} home` : 'CampusMarket home';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(SSO_MESSAGES.refusedTitle)} · ${escapeHtml(product)}</title>
<style>${STYLE}</style></head>
<body><header><div class="bar"><a class="home" href="${escapeHtml(homeUrl)}" aria-label="${escapeHtml(homeLabel)}">${LOGO_MARK}<span class="name"><span class="word">Campus<span>Market</span></span>${campus}</span></a></div></header>
<main><h1>${escapeHtml(SSO_MESSAGES.refusedTitle)}</h1><p id="reason">${escapeHtml(message)}</p>
<p><a class="back" href="${escapeHtml(backUrl)}">${escapeHtml(SSO_MESSAGES.backToLogin)}</a></p></main></body></html>`;
}
