import type { FastifyInstance } from 'fastify';
import { readOutbox } from './mailer.js';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Development only: read the codes the app "sent" without a mail server. */
export function outboxRoutes(dir: string) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/dev/outbox.json', async () => readOutbox(dir));
    app.get('/dev/outbox', async (_request, reply) => {
      const entries = await readOutbox(dir);
      const rows = entries
        .map(
          (e) =>
            `<article><h2>${escapeHtml(e.subject)}</h2><p>To ${escapeHtml(e.to)} · ${escapeHtml(e.sentAt)}</p><pre>${escapeHtml(e.text)}</pre></article>`,
        )
        .join('');
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Development outbox</title><style>body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem;color:#1c2b25}article{border:1px solid #d5ddd9;border-radius:12px;padding:1rem;margin:1rem 0}h2{font-size:1.05rem;margin:0}p{color:#4a5a54;font-size:.9rem}pre{white-space:pre-wrap;font-size:.95rem}</style></head><body><h1>Development outbox</h1><p>E-mails the app would have sent. Set SMTP_URL to send real mail. Not available in production.</p>${rows || '<p>No e-mails yet.</p>'}</body></html>`,
        );
    });
  };
}
