import { MESSAGES } from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { doc } from '../http/openapi.js';
import { readOutbox } from './mailer.js';
import { escapeHtml } from '../http/html.js';

const devDoc = {
  tag: 'development',
  description:
    'Only without SMTP_URL and outside production, and only for a request made directly from this machine (loopback, no X-Forwarded-For/Forwarded header; 404 otherwise): the e-mails the app would have sent.',
  errors: [404],
} as const;

/**
 * The outbox holds every code the app sent, so it answers only a request made from this machine
 * straight to the app: the socket's peer is loopback and no proxy header says it
 * came from elsewhere. TRUST_PROXY plays no part: request.ip is not used.
 */
export function isDirectLoopback(request: FastifyRequest): boolean {
  const h = request.headers;
  if (h['x-forwarded-for'] !== undefined || h.forwarded !== undefined) return false;
  const peer = request.raw.socket.remoteAddress ?? '';
  return peer === '::1' || /^(::ffff:)?127\./.test(peer);
}

/** Development only: read the codes the app "sent" without a mail server. */
export function outboxRoutes(dir: string) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', async (request, reply) => {
      if (!isDirectLoopback(request)) {
        return reply.code(404).send({ message: MESSAGES.notFound, code: 'NOT_FOUND' });
      }
    });
    app.get(
      '/dev/outbox.json',
      doc({
        ...devDoc,
        summary: 'Development outbox as JSON',
        response: z.array(
          z.object({ to: z.string(), subject: z.string(), text: z.string(), sentAt: z.string() }),
        ),
      }),
      async () => readOutbox(dir),
    );
    app.get(
      '/dev/outbox',
      doc({ ...devDoc, summary: 'Development outbox (HTML page)', response: { text: '<!doctype html>…' } }),
      async (_request, reply) => {
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
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Development outbox</title><style>body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem;color:#1c2b25}article{border:1px solid #d5ddd9;border-radius:12px;padding:1rem;margin:1rem 0}h2{font-size:1.05rem;margin:0}p{color:#4a5a54;font-size:.9rem}pre{white-space:pre-wrap;font-size:.95rem}</style></head><body><h1>Development outbox</h1><p>E-mails the app would have sent. Set SMTP_URL to send real mail. Readable only from this machine; not available in production.</p>${rows || '<p>No e-mails yet.</p>'}</body></html>`,
          );
      },
    );
  };
}
