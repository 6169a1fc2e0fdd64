import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe on notification e-mails). */
  headers?: Record<string, string>;
  /**
   * `<random@domain>`, chosen once when the e-mail is queued, so every attempt of a retried send
   * carries the same one and a receiver can drop a duplicate. Missing in jobs queued before it
   * existed: the transport makes one up.
   */
  messageId?: string;
  /** A sign-up, verification, reset or login code: sent before every other queued e-mail. */
  code?: boolean;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface OutboxEntry extends MailMessage {
  id: string;
  from: string;
  sentAt: string;
}

export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: FastifyBaseLogger;
}): Mailer {
  if (options.smtpUrl) return smtpMailer(options.smtpUrl, options.from);
  return outboxMailer(options.outboxDir, options.from, options.logger);
}

function smtpMailer(url: string, from: string): Mailer {
  // Short timeouts: the job worker retries a failed send, and a claim's lease must outlast a send.
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(m) {
      await transport.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        headers: m.headers,
        ...(m.messageId ? { messageId: m.messageId } : {}),
      });
    },
    async close() {
      transport.close();
    },
  };
}

/** Embedded default: no mail server; messages are saved to DATA_DIR/outbox and listed at /dev/outbox. */
function outboxMailer(dir: string, from: string, logger: FastifyBaseLogger): Mailer {
  return {
    async send(m) {
      await mkdir(dir, { recursive: true });
      const sentAt = new Date();
      const id = `${sentAt.getTime()}-${Math.random().toString(36).slice(2, 8)}`;
      const entry: OutboxEntry = { id, from, sentAt: sentAt.toISOString(), ...m };
      await writeFile(path.join(dir, `${id}.json`), JSON.stringify(entry, null, 2));
      // Never the subject or body: they carry the code, and no code goes to a log.
      logger.info({ mailTo: m.to }, 'mail saved to the development outbox (see /dev/outbox)');
    },
    async close() {},
  };
}

export async function readOutbox(dir: string): Promise<OutboxEntry[]> {
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return [];
  }
  const entries = await Promise.all(
    files
      .filter((f) => f.endsWith('.json'))
      .map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as OutboxEntry),
  );
  return entries.sort((a, b) => b.sentAt.localeCompare(a.sentAt));
}
