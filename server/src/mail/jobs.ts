import type { AppContext } from '../context.js';
import type { JobExecutor } from '../jobs/index.js';
import type { MailMessage } from './mailer.js';

export const MAIL_JOB = 'mail.send';

/** The worker sends each queued e-mail; a failure (SMTP down) retries with back-off. */
export function registerMailJobs(ctx: AppContext): void {
  ctx.jobs.register<MailMessage>(MAIL_JOB, (message) => ctx.mailer.send(message));
}

/**
 * Queues an e-mail in the caller's transaction: it is sent only if the change that causes it
 * commits, and it is sent even if this process dies right after the commit.
 */
export async function enqueueMail(
  ctx: AppContext,
  executor: JobExecutor,
  message: MailMessage,
): Promise<void> {
  await ctx.jobs.enqueue<MailMessage>(executor, MAIL_JOB, message);
}
