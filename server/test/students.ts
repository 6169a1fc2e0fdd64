import { randomBytes } from 'node:crypto';
import { signUpSchema } from '@campus/contract';
import { hashPassword } from '../src/accounts/passwords.js';
import { findUserByEmail, insertUser } from '../src/accounts/store.js';
import { codeFrom } from './mail-capture.js';
import type { AppContext } from '../src/context.js';
import { inCampus } from '../src/db/campus-scope.js';
import type { TestApp } from './helper.js';

export interface Student {
  id: number;
  /** The campus the address belongs to (features.md §E). */
  campusId: number;
  email: string;
  password: string;
  token: string;
  firstName: string;
  lastName: string;
}

type StudentOverrides = Partial<Pick<Student, 'email' | 'firstName' | 'lastName' | 'password'>> & {
  /** A campus's e-mail domain for the generated address (default msu.edu): e.g. TEST_CAMPUS_DOMAINS.uw. */
  domain?: string;
};

const DEFAULT_PASSWORD = 'green-and-white-42';

/**
 * argon2id of DEFAULT_PASSWORD with the server's parameters (accounts/passwords.ts), computed once
 * by hand: hashing costs about as much as the rest of a student's set-up, and almost every test
 * uses this password. A login with it still runs the real argon2 check.
 */
const DEFAULT_PASSWORD_HASH =
  '$argon2id$v=19$m=47104,t=1,p=1$SLSRdUyWGbSmiSkYQHJbIQ$6S5ynBZTh4j6YaYbZdlqT+eu4r9c6EsrawZU2B/y0dc';

const hashes = new Map<string, Promise<string>>([[DEFAULT_PASSWORD, Promise.resolve(DEFAULT_PASSWORD_HASH)]]);

function passwordHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

let studentSeq = 0;

function details(overrides: StudentOverrides) {
  studentSeq += 1;
  return {
    firstName: overrides.firstName ?? `Student${studentSeq}`,
    lastName: overrides.lastName ?? 'Spartan',
    email:
      overrides.email ?? `s${studentSeq}-${randomBytes(3).toString('hex')}@${overrides.domain ?? 'msu.edu'}`,
    password: overrides.password ?? DEFAULT_PASSWORD,
  };
}

export interface NewStudent {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/**
 * The account a finished sign-up leaves (verified now, by the app's clock) and the token a login
 * issues, written through the accounts store. Shared by createStudent and the browser journeys'
 * test server (e2e/support/serve.ts), which seeds students this way.
 */
export async function insertVerifiedStudent(
  ctx: Pick<AppContext, 'campuses' | 'db' | 'clock' | 'tokens'>,
  student: NewStudent,
): Promise<{ id: number; token: string; campusId: number }> {
  // The sign-up form's rules and normalisation (trimmed, lower-case address), as the route applies them.
  const input = signUpSchema.parse(student);
  const campus = ctx.campuses.forEmail(input.email);
  if (!campus) {
    const domains = ctx.campuses.open().flatMap((c) => c.emailDomains);
    throw new Error(`${input.email} is not on a campus's domain (${domains.join(', ')})`);
  }
  // Written as sign-up writes it: as work of the address's campus.
  return inCampus(campus.id, async () => ({ ...(await insertOnCampus(ctx, input)), campusId: campus.id }));
}

async function insertOnCampus(
  ctx: Pick<AppContext, 'db' | 'clock' | 'tokens'>,
  input: NewStudent,
): Promise<{ id: number; token: string }> {
  const now = ctx.clock();
  const db = ctx.db.kysely;
  if (await findUserByEmail(db, input.email)) throw new Error(`${input.email} is already registered`);
  const hash = await passwordHash(input.password);
  const id = await db.transaction().execute(async (trx) => {
    const userId = await insertUser(trx, { ...input, passwordHash: hash, now });
    // What verifying the e-mailed code does (accounts/signup-codes.ts activateSignup).
    await trx.updateTable('users').set({ verified: 1, verified_at: now }).where('id', '=', userId).execute();
    return userId;
  });
  const token = await ctx.tokens.issue({ userId: id, email: input.email, tokenVersion: 0 });
  return { id, token };
}

/**
 * A verified, logged-in student made through the stores (insertVerifiedStudent). For every test
 * not about signing up, verifying or logging in; those use `signUpStudent`.
 */
export async function createStudent(t: TestApp, overrides: StudentOverrides = {}): Promise<Student> {
  const given = details(overrides);
  return { ...(await insertVerifiedStudent(t.app.ctx, given)), ...given };
}

/** Signs up, reads the code from the captured mail, verifies and logs in — as a student would. */
export async function signUpStudent(t: TestApp, overrides: StudentOverrides = {}): Promise<Student> {
  const { firstName, lastName, email, password } = details(overrides);
  const before = t.mail.count(email);
  const signUp = await t.app.inject({
    method: 'POST',
    url: '/public/sign-up',
    payload: { firstName, lastName, email, password },
  });
  if (signUp.statusCode !== 201) throw new Error(`sign-up failed: ${signUp.statusCode} ${signUp.body}`);
  // Mail is a job: send it now even when the test runs its jobs by hand (jobWorker: false).
  await t.app.ctx.jobs.runDue({ types: ['mail.send'] });
  const code = codeFrom(await t.mail.waitFor(email, before));
  const verify = await t.app.inject({
    method: 'POST',
    url: '/public/verify',
    payload: { email, token: code },
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const login = await t.app.inject({ method: 'POST', url: '/public/login', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const info = await t.app.inject({
    method: 'GET',
    url: `/users/info?email=${encodeURIComponent(email)}`,
    headers: { authorization: `Bearer ${login.body}` },
  });
  const campusId = t.app.ctx.campuses.forEmail(email)?.id ?? t.app.ctx.campuses.default.id;
  return {
    id: (info.json() as { id: number }).id,
    campusId,
    email,
    password,
    token: login.body,
    firstName,
    lastName,
  };
}
