import { SSO_MESSAGES } from '@campus/contract';
import { escapeHtml } from '../http/html.js';

/**
 * The page a refused university sign-in ends on (features.md §G: "anyone else gets a page saying
 * why"). The browser arrived here from the university, not from the web app, so it is a small
 * self-contained HTML page with the reason and a way back, never a JSON error.
 */
export function refusalPage(campusName: string | null, message: string, backUrl: string): string {
  const product = campusName ? `${campusName} Campus Market` : 'Campus Market';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(SSO_MESSAGES.refusedTitle)} · ${escapeHtml(product)}</title>
<style>body{margin:0;background:#f4f6f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1c2b25}
main{max-width:480px;margin:48px auto;background:#fff;border-radius:16px;padding:32px}
h1{font-size:22px;color:#18453b;margin:0 0 12px}p{line-height:1.5}
a.back{display:inline-block;background:#18453b;color:#fff;border-radius:10px;padding:14px 28px;font-size:16px;font-weight:600;text-decoration:none}
a.back:focus-visible{outline:3px solid #f0b429;outline-offset:2px}</style></head>
<body><main><p style="font-weight:700;color:#18453b;font-size:14px">${escapeHtml(product)}</p>
<h1>${escapeHtml(SSO_MESSAGES.refusedTitle)}</h1><p id="reason">${escapeHtml(message)}</p>
<p><a class="back" href="${escapeHtml(backUrl)}">${escapeHtml(SSO_MESSAGES.backToLogin)}</a></p></main></body></html>`;
}
