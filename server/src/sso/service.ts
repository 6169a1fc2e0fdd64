import { randomBytes } from 'node:crypto';
import { SSO_DEFAULT_STUDENT_VALUES, SSO_LIMITS, SSO_MESSAGES, type CampusSso } from '@campus/contract';
import type { AccountsService } from '../accounts/index.js';
import type { Campus } from '../campuses/index.js';
import type { AppContext } from '../context.js';
import { acrossCampuses, inCampus } from '../db/campus-scope.js';
import { HttpError, badRequest } from '../http/errors.js';
import { SsoRefusal, type AssertedIdentity, type SsoCallbackInput } from './protocol.js';
import type { SsoProtocols } from './protocols.js';
import * as store from './store.js';

export const SWEEP_JOB = 'sso.sweep';
/** Expired sso rows of a campus are dropped this long after a sign-in started there. */
const SWEEP_AFTER_MS = 60 * 60_000;

/** A campus that offers university sign-in right now. */
export type SsoCampus = Campus & { sso: CampusSso };

/** Why a callback ends on a page instead of /sso/done, with the HTTP status of that page. */
export class SignInRefused extends Error {
  constructor(
    readonly status: 400 | 403 | 503,
    message: string,
    /** For the log: what failed (never secrets, addresses or assertions). */
    readonly reason: string,
  ) {
    super(message);
  }
}

/**
 * University sign-in (features.md §G), written once for OIDC and SAML: the protocol turns the
 * callback into what the university asserted; this decides who that is on Campus Market.
 */
export class SsoService {
  constructor(
    private readonly ctx: AppContext,
    private readonly accounts: AccountsService,
    private readonly protocols: SsoProtocols,
  ) {
    ctx.jobs.register(SWEEP_JOB, () => store.deleteExpired(this.ctx.db.kysely, this.ctx.clock()));
  }

  /** The open campus of `slug` with university sign-in, or undefined (its routes answer 404). */
  campus(slug: string): SsoCampus | undefined {
    const campus = this.ctx.campuses.bySlug(slug);
    return campus && campus.sso && !campus.closed ? (campus as SsoCampus) : undefined;
  }

  /** The university's address for a new sign-in, remembered for this browser (`browserKey`). */
  async start(campus: SsoCampus, browserKey: string): Promise<string> {
    const protocol = await this.protocols.for(campus).catch((err: unknown) => {
      throw refusedFrom(err, campus);
    });
    const started = await protocol.start().catch((err: unknown) => {
      throw refusedFrom(err, campus);
    });
    const now = this.ctx.clock();
    await inCampus(campus.id, async () => {
      await store.savePendingRequest(this.ctx.db.kysely, {
        key: started.key,
        browserHash: store.sha256(browserKey),
        pending: started.pending,
        expiresAt: now + SSO_LIMITS.pendingMinutes * 60_000,
        now,
      });
      await this.ctx.jobs.enqueue(this.ctx.db.kysely, SWEEP_JOB, null, {
        key: `${SWEEP_JOB}:${campus.id}`,
        runAt: now + SWEEP_AFTER_MS,
      });
    });
    return started.redirectUrl;
  }

  /**
   * Every check of the callback, then the account rules; answers the one-time code for
   * /sso/done#code=…, or throws SignInRefused (the page says why) or HttpError (suspension).
   * `browserKey` null: the browser could not carry the binding cookie (see routes.ts).
   */
  async finish(campus: SsoCampus, input: SsoCallbackInput, browserKey: string | null): Promise<string> {
    const key = input.query.state ?? input.form.RelayState ?? input.query.RelayState ?? '';
    return inCampus(campus.id, async () => {
      const pending = key === '' ? undefined : await store.takePendingRequest(this.ctx.db.kysely, key);
      const now = this.ctx.clock();
      if (!pending || pending.expiresAt <= now) {
        throw new SignInRefused(400, SSO_MESSAGES.stateInvalid, 'state');
      }
      if (browserKey !== null && store.sha256(browserKey) !== pending.browserHash) {
        throw new SignInRefused(400, SSO_MESSAGES.stateInvalid, 'browser');
      }
      let identity: AssertedIdentity;
      try {
        const protocol = await this.protocols.for(campus);
        identity = await protocol.finish(input, pending.pending);
      } catch (err) {
        throw refusedFrom(err, campus);
      }
      this.checkAddress(campus, identity.email);
      if (!isStudent(identity.affiliations, campus)) {
        throw new SignInRefused(403, SSO_MESSAGES.notAStudent(campus.name), 'not-a-student');
      }
      const userId = await this.accounts.signInFromUniversity({
        email: identity.email,
        firstName: identity.givenName,
        lastName: identity.familyName,
      });
      const code = randomBytes(32).toString('base64url');
      await store.saveExchangeCode(this.ctx.db.kysely, {
        code,
        userId,
        expiresAt: now + SSO_LIMITS.exchangeSeconds * 1000,
        now,
      });
      return code;
    });
  }

  /** POST /auth/sso/exchange: the code (once, within 60 s) for the token login gives. */
  async exchange(code: string): Promise<string> {
    // The code is all the request carries: its campus is read with it (the row says).
    const taken = await acrossCampuses(() => store.takeExchangeCode(this.ctx.db.kysely, code));
    if (!taken || taken.expiresAt <= this.ctx.clock()) throw badRequest(SSO_MESSAGES.exchangeInvalid);
    const token = await inCampus(taken.campusId, () => this.accounts.tokenForUniversitySignIn(taken.userId));
    if (!token) throw badRequest(SSO_MESSAGES.exchangeInvalid);
    return token;
  }

  /** The asserted address must be one of this campus's domains (an address of another campus too is refused). */
  private checkAddress(campus: SsoCampus, email: string): void {
    const owner = this.ctx.campuses.forEmail(email);
    if (owner?.id === campus.id) return;
    if (owner && !owner.closed) {
      throw new SignInRefused(
        403,
        SSO_MESSAGES.emailOfAnotherCampus(campus.name, owner.name),
        'email-of-another-campus',
      );
    }
    throw new SignInRefused(
      403,
      SSO_MESSAGES.emailOutsideCampus(campus.name, campus.emailDomains),
      'email-outside-campus',
    );
  }
}

/**
 * Whether an affiliation says "current student" (features.md §G): its value (before any `@scope`)
 * is one of the campus's `studentValues` (default `student`), case-insensitive; a scoped value
 * (`student@msu.edu`, eduPersonScopedAffiliation) counts only when its scope is one of the
 * campus's domains or a subdomain of one, so another institution's student does not.
 */
export function isStudent(affiliations: readonly string[], campus: SsoCampus): boolean {
  const values = (campus.sso.studentValues ?? SSO_DEFAULT_STUDENT_VALUES).map((v) => v.toLowerCase());
  return affiliations.some((raw) => {
    const [value = '', scope] = raw.trim().toLowerCase().split('@', 2);
    if (!values.includes(value)) return false;
    if (scope === undefined) return true;
    return campus.emailDomains.some((d) => scope === d || scope.endsWith(`.${d}`));
  });
}

/** A protocol's refusal (or an unreachable university) as the page the student gets. */
function refusedFrom(err: unknown, campus: SsoCampus): Error {
  if (err instanceof SignInRefused || err instanceof HttpError) return err;
  if (err instanceof SsoRefusal) {
    const status = err.reason === 'unavailable' ? 503 : err.reason === 'missing-email' ? 403 : 400;
    return new SignInRefused(status, err.message, err.reason);
  }
  return new SignInRefused(503, SSO_MESSAGES.unavailable(campus.name), 'unavailable');
}
