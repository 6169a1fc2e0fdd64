import {
  ERROR_CODES,
  LIMITS,
  MESSAGES,
  type ChangePasswordPayload,
  type PublicUser,
  type UserInfo,
} from '@campus/contract';
import type { AppContext, Principal } from '../context.js';
import type { CodePurpose } from '../db/schema.js';
import { HttpError, badRequest, forbidden, notFound } from '../http/errors.js';
import { resetMail, verificationMail } from '../mail/templates.js';
import { codeMatches, generateCode, hashCode } from './codes.js';
import { burnPasswordCheck, hashPassword, isCommonPassword, verifyPassword } from './passwords.js';
import * as store from './store.js';
import { TokenCache } from './token-cache.js';

export interface SignUpInput {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** Account rules: sign-up, verification codes, login, password change and reset (design §4). */
export class AccountsService {
  private readonly tokenCache: TokenCache;

  constructor(private readonly ctx: AppContext) {
    this.tokenCache = new TokenCache(ctx.events, ctx.clock);
  }

  private get db() {
    return this.ctx.db.kysely;
  }

  isAllowedDomain(email: string): boolean {
    const domain = email.split('@')[1] ?? '';
    return this.ctx.config.allowedEmailDomains.some((d) => domain === d || domain.endsWith(`.${d}`));
  }

  async signUp(input: SignUpInput): Promise<void> {
    if (!this.isAllowedDomain(input.email)) {
      const list = this.ctx.config.allowedEmailDomains.map((d) => `@${d}`).join(', ');
      throw badRequest(`Sign up with your university e-mail address (${list}).`);
    }
    if (isCommonPassword(input.password)) throw badRequest(MESSAGES.passwordTooCommon);
    const existing = await store.findUserByEmail(this.db, input.email);
    if (existing?.verified) throw new HttpError(409, MESSAGES.emailAlreadyRegistered, ERROR_CODES.conflict);
    const passwordHash = await hashPassword(input.password);
    let userId: number;
    if (existing) {
      // Signing up again before verifying replaces the details and sends a fresh code.
      await store.replaceUnverifiedDetails(this.db, existing.id, { ...input, passwordHash });
      userId = existing.id;
    } else {
      userId = await store.insertUser(this.db, { ...input, passwordHash, now: this.ctx.clock() });
    }
    await this.sendCode(userId, input.email, input.firstName, 'verify');
  }

  async verify(email: string, code: number): Promise<void> {
    const user = await store.findUserByEmail(this.db, email);
    if (user?.verified) return; // Idempotent: a second tap on Verify is not an error.
    if (!user) throw badRequest(MESSAGES.verifyFailed);
    await this.consumeCode(user.id, 'verify', code, MESSAGES.verifyFailed);
    await store.markVerified(this.db, user.id);
  }

  /** Same answer whether or not the address has an account waiting (no enumeration). */
  async resendVerification(email: string): Promise<void> {
    const user = await store.findUserByEmail(this.db, email);
    if (!user || user.verified) return;
    await this.sendCode(user.id, user.email, user.first_name, 'verify');
  }

  async login(email: string, password: string): Promise<string> {
    const user = await store.findUserByEmail(this.db, email);
    if (!user) {
      await burnPasswordCheck(password);
      throw new HttpError(401, MESSAGES.loginIncorrect, ERROR_CODES.unauthorized);
    }
    if (!(await verifyPassword(user.password_hash, password))) {
      throw new HttpError(401, MESSAGES.loginIncorrect, ERROR_CODES.unauthorized);
    }
    if (!user.verified) throw new HttpError(403, MESSAGES.loginUnverified, ERROR_CODES.unverified);
    return this.ctx.tokens.issue({ userId: user.id, email: user.email, tokenVersion: user.token_version });
  }

  /** E-mails a reset code when the account exists; the caller answers `true` either way. */
  async requestReset(email: string): Promise<void> {
    const user = await store.findUserByEmail(this.db, email);
    if (!user) return;
    await this.sendCode(user.id, user.email, user.first_name, 'reset');
  }

  async confirmReset(email: string, code: number, newPassword: string): Promise<void> {
    const user = await store.findUserByEmail(this.db, email);
    if (!user) throw badRequest(MESSAGES.resetCodeInvalid);
    if (isCommonPassword(newPassword)) throw badRequest(MESSAGES.passwordTooCommon);
    await this.consumeCode(user.id, 'reset', code, MESSAGES.resetCodeInvalid);
    // The code proved the address, so a reset also completes a pending verification.
    const tokenVersion = await store.setPassword(this.db, user.id, await hashPassword(newPassword));
    this.ctx.events.emit('user.tokensRevoked', { userId: user.id, tokenVersion });
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
    this.ctx.events.emit('user.tokensRevoked', { userId: user.id, tokenVersion });
    return this.ctx.tokens.issue({ userId: user.id, email: user.email, tokenVersion });
  }

  /** Only the caller's own address: no call reveals another student's e-mail. */
  async userInfo(principal: Principal, email: string | undefined): Promise<UserInfo> {
    if (email !== undefined && email.trim().toLowerCase() !== principal.email) throw forbidden();
    const user = await store.findUserById(this.db, principal.userId);
    if (!user) throw notFound(MESSAGES.userNotFound);
    return store.toUserInfo(user);
  }

  async publicUser(id: number): Promise<PublicUser> {
    const user = await store.findUserById(this.db, id);
    if (!user || !user.verified) throw notFound(MESSAGES.userNotFound);
    return store.toPublicUser(user);
  }

  /** Token check for every authenticated call and STOMP CONNECT. */
  async authenticate(token: string): Promise<Principal | null> {
    const cached = this.tokenCache.get(token);
    if (cached) return cached;
    const claims = await this.ctx.tokens.verify(token);
    if (!claims) return null;
    const user = await store.findTokenState(this.db, claims.uid);
    if (!user || !user.verified || user.token_version !== claims.tv || user.email !== claims.sub) return null;
    const principal = { userId: user.id, email: user.email, tokenVersion: user.token_version };
    this.tokenCache.set(token, principal, claims.exp * 1000);
    return principal;
  }

  private async sendCode(userId: number, email: string, firstName: string, purpose: CodePurpose) {
    const code = generateCode();
    const now = this.ctx.clock();
    await store.replaceCode(this.db, {
      userId,
      purpose,
      codeHash: hashCode(code, this.ctx.config.jwtSecret),
      expiresAt: now + LIMITS.codeTtlMinutes * 60_000,
      triesLeft: LIMITS.codeMaxTries,
      now,
    });
    const template = purpose === 'verify' ? verificationMail : resetMail;
    const mail = template({
      to: email,
      firstName,
      code,
      campusName: this.ctx.config.campusName,
      publicUrl: this.ctx.config.publicUrl,
    });
    try {
      await this.ctx.mailer.send(mail);
    } catch (err) {
      this.ctx.logger.error({ err, purpose }, 'sending a code e-mail failed');
      throw new HttpError(
        503,
        'We could not send the e-mail right now. Please try again in a minute.',
        'MAIL_UNAVAILABLE',
      );
    }
  }

  /** Single use, expires, and dies after LIMITS.codeMaxTries wrong tries. */
  private async consumeCode(userId: number, purpose: CodePurpose, code: number, failMessage: string) {
    const stored = await store.findCode(this.db, userId, purpose);
    if (!stored) throw badRequest(failMessage);
    if (stored.expires_at <= this.ctx.clock()) {
      await store.deleteCode(this.db, stored.id);
      throw badRequest(failMessage);
    }
    if (!codeMatches(code, stored.code_hash, this.ctx.config.jwtSecret)) {
      if (stored.tries_left <= 1) {
        await store.deleteCode(this.db, stored.id);
        throw badRequest(MESSAGES.verifyTooManyTries);
      }
      await store.decrementTries(this.db, stored.id);
      throw badRequest(failMessage);
    }
    if (!(await store.deleteCode(this.db, stored.id))) throw badRequest(failMessage);
  }
}
