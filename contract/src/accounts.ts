import { z } from './zod.js';
import { LIMITS } from './limits.js';
import { MESSAGES } from './messages.js';

/** E-mail addresses are compared trimmed and lower-cased everywhere. */
export const emailSchema = z
  .string({ error: MESSAGES.emailRequired })
  .trim()
  .toLowerCase()
  .min(1, MESSAGES.emailRequired)
  .max(LIMITS.emailMax, MESSAGES.emailInvalid)
  .pipe(z.email({ error: MESSAGES.emailInvalid }));

export const passwordSchema = z
  .string({ error: MESSAGES.passwordTooShort })
  .min(LIMITS.passwordMin, MESSAGES.passwordTooShort)
  .max(LIMITS.passwordMax, MESSAGES.passwordTooLong);

export const newPasswordSchema = z
  .string({ error: MESSAGES.newPasswordTooShort })
  .min(LIMITS.passwordMin, MESSAGES.newPasswordTooShort)
  .max(LIMITS.passwordMax, MESSAGES.passwordTooLong);

const personName = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(LIMITS.nameMax, MESSAGES.nameTooLong);

/** A 6-digit code; the client sends it as a number (spec §5), we also accept a digit string. */
export const codeSchema = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, MESSAGES.codeInvalidFormat)], {
    error: MESSAGES.codeRequired,
  })
  .transform((v) => Number(v))
  .pipe(
    z
      .number()
      .int(MESSAGES.codeInvalidFormat)
      .min(100_000, MESSAGES.codeInvalidFormat)
      .max(999_999, MESSAGES.codeInvalidFormat),
  );

export const signUpSchema = z.object({
  firstName: personName(MESSAGES.firstNameRequired),
  lastName: personName(MESSAGES.lastNameRequired),
  email: emailSchema,
  password: passwordSchema,
});
export type SignUpPayload = z.input<typeof signUpSchema>;

export const verifySchema = z.object({ email: emailSchema, token: codeSchema });
export type VerifyPayload = z.input<typeof verifySchema>;

export const emailOnlySchema = z.object({ email: emailSchema });

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ error: MESSAGES.passwordTooShort }).min(LIMITS.passwordMin, MESSAGES.passwordTooShort),
});
export type LoginPayload = z.input<typeof loginSchema>;

export const resetConfirmSchema = z.object({
  email: emailSchema,
  token: codeSchema,
  newPassword: newPasswordSchema,
});
export type ResetConfirmPayload = z.input<typeof resetConfirmSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: MESSAGES.currentPasswordRequired })
    .min(1, MESSAGES.currentPasswordRequired),
  newPassword: newPasswordSchema,
});
export type ChangePasswordPayload = z.input<typeof changePasswordSchema>;

/** GET /users/info answer (only ever for the caller's own address). */
export interface UserInfo {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

/** GET /users/{id} answer: never an e-mail address. */
export interface PublicUser {
  id: number;
  firstName: string;
  lastName: string;
}

/** Decoded JWT payload: sub = e-mail (spec §3), uid = user id, tv = token version. */
export interface TokenClaims {
  sub: string;
  uid: number;
  tv: number;
  iat: number;
  exp: number;
}

/** Messages and codes a client sees from login once an account asks for an e-mailed code. */
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
