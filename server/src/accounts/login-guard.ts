import { AUTH_ERROR_CODES, AUTH_MESSAGES, ERROR_CODES, MESSAGES } from '@campus/contract';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { burnPasswordCheck, verifyPassword } from './passwords.js';
import type { AccountsService } from './service.js';
import * as store from './store.js';

export interface LoginInput {
  email: string;
  password: string;
  /** The e-mailed code, once the account asks for one. */
  code?: number;
  /** The client's address as the app sees it (request.ip). */
  ip: string;
}

const incorrect = () => new HttpError(401, MESSAGES.loginIncorrect, ERROR_CODES.unauthorized);

/**
 * Login throttling that never locks the owner out. Only failures count:
 * - per client IP (`login:ip`) and per (account, IP) (`login:account-ip`): a guesser is refused
 *   with 429, while the owner on another network is untouched;
 * - per account from everywhere (`login:account`, a slow daily ceiling against distributed
 *   guessing): past it, every login of that address also needs a code e-mailed to the owner, so
 *   guessing the password alone is useless and the owner still gets in.
 * Unknown addresses go through exactly the same counters and answers.
 */
export class LoginGuard {
  constructor(
    private readonly ctx: AppContext,
    private readonly accounts: AccountsService,
    /** Suspension and student status (safety), passed in so accounts never imports safety. */
    private readonly checkLogin: (user: store.UserRow) => Promise<void>,
  ) {}

  async login(input: LoginInput): Promise<string> {
    const { limits } = this.ctx;
    const pairKey = `${input.email}|${input.ip}`;
    await limits.check('login:ip', input.ip);
    await limits.check('login:account-ip', pairKey);
    const needsCode = await limits.exhausted('login:account', input.email);
    const user = await store.findUserByEmail(this.ctx.db.kysely, input.email);

    if (needsCode) {
      if (input.code === undefined) {
        // Mail a code (at most one live code at a time), whatever the password: the answer must not
        // tell a guesser whether the password was right.
        if (user?.verified) await this.mailLoginCode(user);
        throw new HttpError(401, AUTH_MESSAGES.loginCodeRequired, AUTH_ERROR_CODES.loginCodeRequired);
      }
      const codeOk =
        user !== undefined &&
        (await this.accounts.consumeCode(user.id, 'login', input.code, AUTH_MESSAGES.loginCodeInvalid).then(
          () => true,
          () => false,
        ));
      if (!codeOk) {
        await this.countFailure(input, pairKey);
        throw new HttpError(401, AUTH_MESSAGES.loginCodeInvalid, AUTH_ERROR_CODES.loginCodeRequired);
      }
    }

    const passwordOk = user
      ? await verifyPassword(user.password_hash, input.password)
      : (await burnPasswordCheck(input.password), false);
    if (!user || !passwordOk) {
      await this.countFailure(input, pairKey);
      throw incorrect();
    }
    if (!user.verified) throw new HttpError(403, MESSAGES.loginUnverified, ERROR_CODES.unverified);
    // Suspension and student status (safety).
    await this.checkLogin(user);
    // The owner got in from here: their own earlier typos from this network are forgiven.
    await limits.reset('login:account-ip', pairKey);
    return this.ctx.tokens.issue({ userId: user.id, email: user.email, tokenVersion: user.token_version });
  }

  private async countFailure(input: LoginInput, pairKey: string): Promise<void> {
    await Promise.all([
      this.ctx.limits.count('login:ip', input.ip),
      this.ctx.limits.count('login:account-ip', pairKey),
      this.ctx.limits.count('login:account', input.email),
    ]);
  }

  private async mailLoginCode(user: store.UserRow): Promise<void> {
    const db = this.ctx.db.kysely;
    const live = await store.findCode(db, user.id, 'login');
    if (live && live.expires_at > this.ctx.clock()) return;
    await db.transaction().execute((trx) => this.accounts.issueCode(trx, user, 'login'));
    this.ctx.jobs.kick();
  }
}
