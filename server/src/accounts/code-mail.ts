import type { Transaction } from 'kysely';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { enqueueMail, loginCodeMail, resetMail, verificationMail } from '../mail/index.js';

export type CodeMailKind = 'verify' | 'reset' | 'login';

/** Queues the e-mail carrying a code, in the transaction that stores the code. */
export async function enqueueCodeMail(
  ctx: AppContext,
  trx: Transaction<Database>,
  mail: { to: string; firstName: string; code: number; kind: CodeMailKind },
): Promise<void> {
  const template =
    mail.kind === 'verify' ? verificationMail : mail.kind === 'reset' ? resetMail : loginCodeMail;
  await enqueueMail(
    ctx,
    trx,
    template({
      to: mail.to,
      firstName: mail.firstName,
      code: mail.code,
      campusName: ctx.campuses.current().name,
      publicUrl: ctx.config.publicUrl,
    }),
  );
}
