import {
  LIMITS,
  CAMPUS_MESSAGES,
  MESSAGES,
  SSO_MESSAGES,
  type ChangePasswordPayload,
  type PublicUser,
  type UserInfo,
} from '@campus/contract';
import type { Transaction } from 'kysely';
import type { Campus } from '../campuses/index.js';
import type { AppContext, Principal } from '../context.js';
import { acrossCampuses, inCampus } from '../db/campus-scope.js';
import type { CodePurpose, Database } from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { JOB_PRIORITY } from '../jobs/index.js';
import { enqueueCodeMail } from './code-mail.js';
import { codeMatches, generateCode, hashCode } from './codes.js';
import { LoginGuard, type LoginInput } from './login-guard.js';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords.js';
import * as signupCodes from './signup-codes.js';
import * as store from './store.js';
import { TokenCache } from './token-cache.js';

declare module '../events.js' {
  interface DomainEventMap {
    /**
     * Every token of this user older than tokenVersion stopped working (password change or reset,
     * suspension, account deletion). After commit: this process's token cache forgets the user,
     * and chat closes their older STOMP sessions on every process.
     */
    'user.tokensRevoked': { userId: number; tokenVersion: number };
  }
}

const RESET_JOB = 'accounts.reset-code';
const RESEND_JOB = 'accounts.resend-signup-code';

export interface SignUpInput {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** What accounts needs from modules wired after it (app.ts passes them at construction). */
export interface AccountsDeps {
  /**
   * Runs on a login whose password was right, before a token is issued, and throws to refuse it
   * (safety: suspension and student status).
   */
  checkLogin(user: store.UserRow): Promise<void>;
}

/** Account rules: sign-up, verification codes, login, password change and reset (design §4). */
export class AccountsService {
  private readonly tokenCache: TokenCache;

  private readonly loginGuard: LoginGuard;

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: AccountsDeps,
  ) {
    this.tokenCache = new TokenCache(ctx.domainEvents, ctx.clock);
    this.loginGuard = new LoginGuard(ctx, this, deps.checkLogin);
    ctx.jobs.register<{ email: string }>(RESET_JOB, (p) => this.sendResetCode(p));
    ctx.jobs.register<{ email: string }>(RESEND_JOB, (p) => this.resendSignupCode(p));
  }

  private get db() {
    return this.ctx.db.kysely;
  }

  /**
   * The campus an address belongs to; an address no campus lists is looked up in the default
   * campus, where no account can have it (so the answer is the same as for an unknown account).
   */
  campusOf(email: string): Campus {
    return this.ctx.campuses.forEmail(email) ?? this.ctx.campuses.default;
  }

  /** Runs work about an address as work of the address's campus (db/campus-scope.ts). */
  asCampusOf<T>(email: string, work: () => Promise<T>): Promise<T> {
    return inCampus(this.campusOf(email).id, work);
  }

  async signUp(input: SignUpInput): Promise<void> {
    const campus = this.ctx.campuses.forEmail(input.email);
    if (!campus) {
      const domains = this.ctx.campuses.open().flatMap((c) => c.emailDomains);
      throw badRequest(CAMPUS_MESSAGES.campusNotOnMarket(input.email.split('@')[1] ?? '', domains));
    }
    if (campus.closed) throw badRequest(CAMPUS_MESSAGES.campusClosed(campus.name));
    if (campus.ssoOnly) throw forbidden(SSO_MESSAGES.signUpSsoOnly(campus.name));
    return inCampus(campus.id, () => this.signUpOnCampus(input));
  }

  private async signUpOnCampus(input: SignUpInput): Promise<void> {
    if (isCommonPassword(input.password)) throw badRequest(MESSAGES.passwordTooCommon);
    const existing = await store.findUserByEmail(this.db, input.email);
    if (existing?.verified) throw conflict(MESSAGES.emailAlreadyRegistered);
    const passwordHash = await hashPassword(input.password);
    const code = generateCode();
    const now = this.ctx.clock();
    await this.db.transaction().execute(async (trx) => {
      // A second sign-up for a pending address leaves the first one's details alone: each code
      // activates the password and names of the sign-up that sent it.
      const userId = existing?.id ?? (await store.insertUser(trx, { ...input, passwordHash, now }));
      await signupCodes.insertSignupCode(trx, {
        userId,
        codeHash: hashCode(code, this.ctx.config.jwtSecret),
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        expiresAt: now + LIMITS.codeTtlMinutes * 60_000,
        triesLeft: LIMITS.codeMaxTries,
        now,
      });
      await enqueueCodeMail(this.ctx, trx, {
        to: input.email,
        firstName: input.firstName,
        code,
        kind: 'verify',
      });
    });
    this.ctx.jobs.kick();
  }

  /**
   * A wrong code answers the same 400 whatever the address's state (unknown, pending, verified);
   * the right code on an already verified address answers 200 again (a double tap is no error).
   */
  async verify(email: string, code: number): Promise<void> {
    const user = await store.findUserByEmail(this.db, email);
    if (!user) throw badRequest(MESSAGES.verifyFailed);
    const live = await signupCodes.liveSignupCodes(this.db, user.id, this.ctx.clock());
    const match = live.find((row) => codeMatches(code, row.code_hash, this.ctx.config.jwtSecret));
    if (user.verified) {
      if (match?.tries_left === signupCodes.USED) return;
      throw badRequest(MESSAGES.verifyFailed);
    }
    if (!match || match.tries_left === signupCodes.USED) {
      await signupCodes.spendTry(this.db, user.id);
      throw badRequest(MESSAGES.verifyFailed);
    }
    const activated = await this.db
      .transaction()
      .execute((trx) => signupCodes.activateSignup(trx, match, this.ctx.clock()));
    if (!activated) throw badRequest(MESSAGES.verifyFailed);
  }

  /** Same answer, and the same work before answering, whether or not the address has an account. */
  async resendVerification(email: string): Promise<void> {
    await this.ctx.jobs.enqueue(
      this.db,
      RESEND_JOB,
      { email },
      { key: `${RESEND_JOB}:${email}`, priority: JOB_PRIORITY.code },
    );
  }

  async login(input: LoginInput): Promise<string> {
    return this.loginGuard.login(input);
  }

  /**
   * Answers before anything about the address is looked up: the same single
   * INSERT for every address, then a job finds the account and mails a code if there is one.
   */
  async requestReset(email: string): Promise<void> {
    this.refuseResetOnSsoOnly(email);
    await this.ctx.jobs.enqueue(
      this.db,
      RESET_JOB,
      { email },
      { key: `${RESET_JOB}:${email}`, priority: JOB_PRIORITY.code },
    );
  }

  async confirmReset(email: string, code: number, newPassword: string): Promise<void> {
    this.refuseResetOnSsoOnly(email);
    // The password rule first, for every address: its answer must not depend on the account existing.
    if (isCommonPassword(newPassword)) throw badRequest(MESSAGES.passwordTooCommon);
    const user = await store.findUserByEmail(this.db, email);
    if (!user) throw badRequest(MESSAGES.resetCodeInvalid);
    await this.consumeCode(user.id, 'reset', code, MESSAGES.resetCodeInvalid);
    // The code proved the address, so a reset also completes a pending verification.
    await this.ctx.domainEvents.transaction(async (trx) => {
      await trx.deleteFrom('signup_codes').where('user_id', '=', user.id).execute();
      const tokenVersion = await store.setPassword(trx, user.id, await hashPassword(newPassword));
      await this.ctx.domainEvents.announce(trx, 'user.tokensRevoked', { userId: user.id, tokenVersion });
    });
  }

  /**
   * A campus that signs in only through its university has no Campus Market passwords to reset.
   * Decided by the address's domain alone, so the answer says nothing about whether it has an account.
   */
  private refuseResetOnSsoOnly(email: string): void {
    const campus = this.ctx.campuses.forEmail(email);
    if (campus?.ssoOnly) throw forbidden(SSO_MESSAGES.resetSsoOnly(campus.name));
  }

  /**
   * University sign-in (sso module), in the campus scope of the address: the university vouched
   * for `email`, so the account is created (verified, without a password) or linked, its names
   * become the university's, and its student status is renewed like a verification code renews it.
   * A pending e-mail sign-up of the address loses its password: whoever typed it never proved the
   * address. Suspension refuses it exactly as login does, before anything is written.
   */
  async signInFromUniversity(input: {
    email: string;
    firstName: string | null;
    lastName: string | null;
  }): Promise<number> {
    const now = this.ctx.clock();
    const name = (given: string | null, fallback: string) =>
      (given ?? fallback).slice(0, LIMITS.nameMax) || fallback;
    const existing = await store.findUserByEmail(this.db, input.email);
    if (existing) await this.deps.checkLogin({ ...existing, verified: 1, verified_at: now });
    return this.db.transaction().execute(async (trx) => {
      const userId =
        existing?.id ??
        (await store.insertUser(trx, {
          email: input.email,
          firstName: name(input.firstName, input.email.split('@')[0] ?? 'Student'),
          lastName: name(input.lastName, ''),
          passwordHash: '',
          now,
        }));
      await store.renewFromUniversity(trx, userId, {
        firstName: input.firstName?.slice(0, LIMITS.nameMax) ?? null,
        lastName: input.lastName?.slice(0, LIMITS.nameMax) ?? null,
        now,
        dropUnprovenPassword: existing !== undefined && !existing.verified,
      });
      if (existing && !existing.verified) {
        await trx.deleteFrom('signup_codes').where('user_id', '=', userId).execute();
      }
      return userId;
    });
  }

  /**
   * The token of a university sign-in, when its one-time code is traded (sso module): the same
   * token login gives, after the same suspension check at this moment.
   */
  async tokenForUniversitySignIn(userId: number): Promise<string | null> {
    const user = await store.findUserById(this.db, userId);
    if (!user || !user.verified) return null;
    await this.deps.checkLogin(user);
    return this.ctx.tokens.issue({ userId: user.id, email: user.email, tokenVersion: user.token_version });
  }

  /** Returns a fresh token for the calling session; every other session is logged out. */
  async changePassword(principal: Principal, input: Required<ChangePasswordPayload>): Promise<string> {
    const user = await store.findUserById(this.db, principal.userId);
    if (!user) throw notFound(MESSAGES.userNotFound);
    if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
      throw badRequest(MESSAGES.currentPasswordWrong);
    }
    if (input.currentPassword === input.newPassword) throw badRequest(MESSAGES.samePassword);
    if (isCommonPassword(input.newPassword)) throw badRequest(MESSAGES.passwordTooCommon);
    const tokenVersion = await store.setPassword(this.db, user.id, await hashPassword(input.newPassword));
    await this.ctx.domainEvents.announceCommitted('user.tokensRevoked', { userId: user.id, tokenVersion });
    return this.ctx.tokens.issue({ userId: user.id, email: user.email, tokenVersion });
  }

  /** Only the caller's own address: no call reveals another student's e-mail. */
  async userInfo(principal: Principal, email: string | undefined): Promise<UserInfo> {
    if (email !== undefined && email.trim().toLowerCase() !== principal.email) throw forbidden();
    const user = await store.findUserById(this.db, principal.userId);
    if (!user) throw notFound(MESSAGES.userNotFound);
    return store.toUserInfo(user);
  }

  /** A student of the caller's campus: another campus's is 404 like an unknown id (features.md §E). */
  async publicUser(viewer: Principal, id: number): Promise<PublicUser> {
    const user = await store.findUserById(this.db, id);
    if (!user || !user.verified || Number(user.campus_id) !== viewer.campusId)
      throw notFound(MESSAGES.userNotFound);
    return store.toPublicUser(user);
  }

  /** Token check for every authenticated call and STOMP CONNECT. */
  /** The cached principal of a token verified within the token cache's TTL (see authenticate). */
  cachedPrincipal(token: string): Principal | undefined {
    return this.tokenCache.get(token);
  }

  async authenticate(token: string): Promise<Principal | null> {
    const cached = this.tokenCache.get(token);
    if (cached) return cached;
    const claims = await this.ctx.tokens.verify(token);
    if (!claims) return null;
    // The token names the user, not yet the campus: this one lookup reads across campuses.
    const user = await acrossCampuses(() => store.findTokenState(this.db, claims.uid));
    if (!user || !user.verified || user.token_version !== claims.tv || user.email !== claims.sub) return null;
    const principal: Principal = {
      userId: user.id,
      email: user.email,
      tokenVersion: user.token_version,
      campusId: Number(user.campus_id),
    };
    this.tokenCache.set(token, principal, claims.exp * 1000);
    return principal;
  }

  /** Job: mail a reset code if the address has an account (nothing otherwise). */
  private async sendResetCode({ email }: { email: string }): Promise<void> {
    const user = await store.findUserByEmail(this.db, email);
    if (!user) return;
    await this.db.transaction().execute((trx) => this.issueCode(trx, user, 'reset'));
  }

  /** Job: a fresh code for the newest pending sign-up of the address (same password and names). */
  private async resendSignupCode({ email }: { email: string }): Promise<void> {
    const user = await store.findUserByEmail(this.db, email);
    if (!user || user.verified) return;
    const code = generateCode();
    const now = this.ctx.clock();
    const fresh = {
      codeHash: hashCode(code, this.ctx.config.jwtSecret),
      expiresAt: now + LIMITS.codeTtlMinutes * 60_000,
      triesLeft: LIMITS.codeMaxTries,
    };
    await this.db.transaction().execute(async (trx) => {
      const newest = await signupCodes.newestSignupCode(trx, user.id);
      if (newest) {
        await signupCodes.refreshSignupCode(trx, newest.id, fresh);
      } else {
        // A sign-up from before codes carried their details: the account row holds them.
        await signupCodes.insertSignupCode(trx, {
          userId: user.id,
          passwordHash: user.password_hash,
          firstName: user.first_name,
          lastName: user.last_name,
          now,
          ...fresh,
        });
      }
      await enqueueCodeMail(this.ctx, trx, {
        to: user.email,
        firstName: newest?.first_name ?? user.first_name,
        code,
        kind: 'verify',
      });
    });
  }

  /** Stores a new code (replacing the account's previous one for `purpose`) and queues its e-mail. */
  async issueCode(
    trx: Transaction<Database>,
    user: store.UserRow,
    purpose: 'reset' | 'login',
  ): Promise<void> {
    const code = generateCode();
    const now = this.ctx.clock();
    await store.replaceCode(trx, {
      userId: user.id,
      purpose,
      codeHash: hashCode(code, this.ctx.config.jwtSecret),
      expiresAt: now + LIMITS.codeTtlMinutes * 60_000,
      triesLeft: LIMITS.codeMaxTries,
      now,
    });
    await enqueueCodeMail(this.ctx, trx, { to: user.email, firstName: user.first_name, code, kind: purpose });
  }

  /**
   * Single use, expires, and dies after LIMITS.codeMaxTries wrong tries. Every failure answers the
   * same message, so a dead code looks like a wrong one (no hint that the account exists).
   */
  async consumeCode(userId: number, purpose: CodePurpose, code: number, failMessage: string): Promise<void> {
    const stored = await store.findCode(this.db, userId, purpose);
    if (!stored) throw badRequest(failMessage);
    if (stored.expires_at <= this.ctx.clock()) {
      await store.deleteCode(this.db, stored.id);
      throw badRequest(failMessage);
    }
    if (!codeMatches(code, stored.code_hash, this.ctx.config.jwtSecret)) {
      if (stored.tries_left <= 1) await store.deleteCode(this.db, stored.id);
      else await store.decrementTries(this.db, stored.id);
      throw badRequest(failMessage);
    }
    if (!(await store.deleteCode(this.db, stored.id))) throw badRequest(failMessage);
  }
}
