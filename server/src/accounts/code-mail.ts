import type { Transaction } from 'kysely';
import type { AppContext } from '../context.js';
import { requireCampusId } from '../db/campus-scope.js';
import type { Database } from '../db/schema.js';
import { campusBaseUrl } from '../campuses/index.js';
import { enqueueMail, loginCodeMail, resetMail, verificationMail } from '../mail/index.js';

export type CodeMailKind = 'verify' | 'reset' | 'login';

/**
 * Queues the e-mail carrying a code, in the transaction that stores the code. It speaks for the
 * campus of the account (the scope the code is stored in): its name, and links to its site. No
 * campus in scope is a programming error, not a reason to fall back to the default campus.
 */
export async function enqueueCodeMail(
  ctx: AppContext,
  trx: Transaction<Database>,
  mail: { to: string; firstName: string; code: number; kind: CodeMailKind },
): Promise<void> {
  const campus = ctx.campuses.byId(requireCampusId());
  const template =
    mail.kind === 'verify' ? verificationMail : mail.kind === 'reset' ? resetMail : loginCodeMail;
  await enqueueMail(
    ctx,
    trx,
    template({
      to: mail.to,
      firstName: mail.firstName,
      code: mail.code,
      campusName: campus.name,
      publicUrl: campusBaseUrl(ctx.config.publicUrl, campus),
    }),
  );
}
