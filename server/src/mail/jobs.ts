import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { JOB_PRIORITY, type JobExecutor } from '../jobs/index.js';
import type { MailMessage } from './mailer.js';

export const MAIL_JOB = 'mail.send';

/** The worker sends each queued e-mail; a failure (SMTP down) retries with back-off. */
export function registerMailJobs(ctx: AppContext): void {
  ctx.jobs.register<MailMessage>(MAIL_JOB, (message) => ctx.mailer.send(message));
}

/**
 * Queues an e-mail in the caller's transaction: it is sent only if the change that causes it
 * commits, and it is sent even if this process dies right after the commit. Its Message-ID is
 * chosen here, once, so a retry after a send that did arrive (the answer was lost) is recognisable
 * as the same e-mail. Code e-mails go in the queue's fast lane.
 */
export async function enqueueMail(
  ctx: AppContext,
  executor: JobExecutor,
  message: MailMessage,
): Promise<void> {
  const withId: MailMessage = {
    ...message,
    messageId: message.messageId ?? newMessageId(ctx.config.mailFrom),
  };
  await ctx.jobs.enqueue<MailMessage>(executor, MAIL_JOB, withId, {
    priority: message.code ? JOB_PRIORITY.code : JOB_PRIORITY.normal,
  });
}

/** `<uuid@domain of the sender>` (RFC 5322 msg-id); `campus-market.invalid` when MAIL_FROM has none. */
export function newMessageId(mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(mailFrom)?.[1] ?? 'campus-market.invalid';
  return `<${randomUUID()}@${domain}>`;
}
