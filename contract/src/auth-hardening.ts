import type { z } from 'zod';
import { codeSchema, loginSchema } from './accounts.js';

/** Issue 8: messages and codes a client sees from the hardened account calls. */
export const AUTH_MESSAGES = {
  loginCodeRequired: 'For your security we e-mailed you a code. Enter it with your password to log in.',
  loginCodeInvalid: 'Incorrect code or code expired. Log in again to get a new code.',
} as const;

export const AUTH_ERROR_CODES = {
  /** Too many failed logins for this account from everywhere: a code e-mailed to the owner is needed. */
  loginCodeRequired: 'LOGIN_CODE_REQUIRED',
} as const;

/** Login, with the e-mailed code once the account asks for one (LOGIN_CODE_REQUIRED). */
export const loginWithCodeSchema = loginSchema.extend({ code: codeSchema.optional() });
export type LoginWithCodePayload = z.input<typeof loginWithCodeSchema>;
