import type {
  CampusInfo,
  CampusSummary,
  ChangePasswordPayload,
  LoginPayload,
  ResetConfirmPayload,
  SignUpPayload,
  UserInfo,
  VerifyPayload,
} from '@campus/contract';
import { api } from './client';

/** Account calls of spec §7 (public ones carry no token). */

export function signUp(payload: SignUpPayload): Promise<unknown> {
  return api.post<unknown>('/public/sign-up', payload);
}

/** The code goes as a number (spec §5); the e-mail binds it to the account (design §3). */
export function verifyEmail(payload: VerifyPayload): Promise<unknown> {
  return api.post<unknown>('/public/verify', payload);
}

export function resendVerificationCode(email: string): Promise<unknown> {
  return api.post<unknown>('/public/verify/resend', { email });
}

/** Answers the JWT as a plain string. */
export async function logIn(payload: LoginPayload): Promise<string> {
  const body = await api.post<unknown>('/public/login', payload);
  if (typeof body === 'string' && body.trim() !== '') return body.trim();
  if (typeof body === 'object' && body !== null && typeof (body as { token?: unknown }).token === 'string') {
    return (body as { token: string }).token;
  }
  throw new Error('The login answer did not contain a token');
}

export function requestPasswordReset(email: string): Promise<unknown> {
  return api.post<unknown>('/public/password/forgot', { email });
}

export function confirmPasswordReset(payload: ResetConfirmPayload): Promise<unknown> {
  return api.post<unknown>('/public/password/forgot/verify', payload);
}

/** A successful answer carries a fresh token in `x-auth-token`, stored by the client. */
export function changePassword(payload: ChangePasswordPayload): Promise<unknown> {
  return api.put<unknown>('/users/password/change', payload);
}

export function getUserInfo(email: string, signal?: AbortSignal): Promise<UserInfo> {
  return api.get<UserInfo>('/users/info', { query: { email }, signal });
}

/**
 * The campus of this visit (features.md §E): the logged-in student's, else the Host's, else the
 * default. A public path, but the token goes with it when there is one: it is what makes the
 * answer the student's campus. The server ignores a bad token here (never a 401).
 */
export function getCampusInfo(signal?: AbortSignal): Promise<CampusInfo> {
  return api.get<CampusInfo>('/public/campus', { signal, auth: true, redirectOn401: false });
}

/** Every campus students can join, in name order (the "find your campus" picker). */
export function getCampuses(signal?: AbortSignal): Promise<CampusSummary[]> {
  return api.get<CampusSummary[]>('/public/campuses', { signal });
}

/** University sign-in (features.md §G): the one-time code of /sso/done#code=… for the token login gives. */
export async function exchangeSsoCode(code: string): Promise<string> {
  const body = await api.post<unknown>('/auth/sso/exchange', { code });
  if (typeof body === 'string' && body.trim() !== '') return body.trim();
  throw new Error('The exchange answer did not contain a token');
}
