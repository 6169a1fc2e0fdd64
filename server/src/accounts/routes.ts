import {
  MESSAGES,
  dbIdSchema,
  messageResponse,
  publicUserResponse,
  userInfoResponse,
  REFRESHED_TOKEN_HEADER,
  changePasswordSchema,
  emailOnlySchema,
  loginWithCodeSchema,
  resetConfirmSchema,
  signUpSchema,
  verifySchema,
} from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAuth, principalOf } from '../http/auth.js';
import { badRequest, parseOr400 } from '../http/errors.js';
import { doc } from '../http/openapi.js';
import type { LimitName } from '../http/rate-limit.js';
import type { AccountsService } from './service.js';

const USER_ID_INVALID = 'The user id must be a positive whole number';
/** Ids beyond the database's integer range are refused alike on SQLite and PostgreSQL. */
const idParam = z.object({ id: dbIdSchema(USER_ID_INVALID) });

export function accountsRoutes(ctx: AppContext, service: AccountsService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const limit = async (request: FastifyRequest, name: string, email: string) => {
      await ctx.limits.consume(`${name}:ip` as LimitName, request.ip);
      await ctx.limits.consume(`${name}:account` as LimitName, email);
    };
    const auth = { preHandler: requireAuth(ctx) };

    app.post(
      '/public/sign-up',
      doc({
        tag: 'accounts',
        summary: 'Sign up; e-mails a verification code',
        body: signUpSchema,
        status: 201,
        response: messageResponse,
        errors: [400, 409, 429],
      }),
      async (request, reply) => {
        const body = parseOr400(signUpSchema, allDetailsPresent(request.body));
        await limit(request, 'signup', body.email);
        await service.signUp(body);
        return reply.code(201).send({ message: MESSAGES.signUpSuccess });
      },
    );

    app.post(
      '/public/verify',
      doc({
        tag: 'accounts',
        summary: 'Verify an address with its code',
        body: verifySchema,
        response: messageResponse,
        errors: [400, 429],
      }),
      async (request) => {
        const body = parseOr400(verifySchema, request.body);
        await limit(request, 'verify', body.email);
        await service.asCampusOf(body.email, () => service.verify(body.email, body.token));
        return { message: MESSAGES.verified };
      },
    );

    app.post(
      '/public/verify/resend',
      doc({
        tag: 'accounts',
        summary: 'Send a fresh verification code',
        body: emailOnlySchema,
        response: messageResponse,
        errors: [400, 429],
      }),
      async (request) => {
        const body = parseOr400(emailOnlySchema, request.body);
        await limit(request, 'resend', body.email);
        await service.asCampusOf(body.email, () => service.resendVerification(body.email));
        return { message: MESSAGES.codeResent };
      },
    );

    app.post(
      '/public/login',
      doc({
        tag: 'accounts',
        summary: 'Log in; answers the bearer token',
        description:
          'Failed logins are counted per client IP, per (account, IP) and per account over a day; past the daily ceiling the answer is 401 `LOGIN_CODE_REQUIRED` and a code is e-mailed, to be sent back as `code` with the password.',
        body: loginWithCodeSchema,
        response: { text: 'eyJhbGciOiJIUzI1NiJ9…' },
        errors: [400, 401, 403, 429],
      }),
      async (request, reply) => {
        const body = parseOr400(loginWithCodeSchema, request.body);
        // Failures are counted inside (per IP, per account and IP, per account): see login-guard.ts.
        const token = await service.asCampusOf(body.email, () => service.login({ ...body, ip: request.ip }));
        return reply.type('text/plain; charset=utf-8').send(token);
      },
    );

    app.post(
      '/public/password/forgot',
      doc({
        tag: 'accounts',
        summary: 'E-mail a password reset code',
        body: emailOnlySchema,
        response: z.literal(true),
        errors: [400, 429],
      }),
      async (request) => {
        const body = parseOr400(emailOnlySchema, request.body);
        await limit(request, 'forgot', body.email);
        await service.asCampusOf(body.email, () => service.requestReset(body.email));
        return true;
      },
    );

    app.post(
      '/public/password/forgot/verify',
      doc({
        tag: 'accounts',
        summary: 'Set a new password with a reset code',
        body: resetConfirmSchema,
        response: { text: MESSAGES.passwordResetDone },
        errors: [400, 429],
      }),
      async (request, reply) => {
        const body = parseOr400(resetConfirmSchema, request.body);
        await limit(request, 'reset', body.email);
        await service.asCampusOf(body.email, () =>
          service.confirmReset(body.email, body.token, body.newPassword),
        );
        return reply.type('text/plain; charset=utf-8').send(MESSAGES.passwordResetDone);
      },
    );

    app.put(
      '/users/password/change',
      {
        ...auth,
        ...doc({
          tag: 'accounts',
          summary: 'Change the password; other sessions are logged out',
          description: `The fresh token of this session is in the \`${REFRESHED_TOKEN_HEADER}\` answer header.`,
          auth: true,
          body: changePasswordSchema,
          response: { text: MESSAGES.passwordChanged },
          headers: { [REFRESHED_TOKEN_HEADER]: 'The new token of this session' },
          errors: [400, 429],
        }),
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const body = parseOr400(changePasswordSchema, request.body);
        await ctx.limits.consume('change:account', String(principal.userId));
        const token = await service.changePassword(principal, body);
        return reply
          .header(REFRESHED_TOKEN_HEADER, token)
          .type('text/plain; charset=utf-8')
          .send(MESSAGES.passwordChanged);
      },
    );

    app.get(
      '/users/info',
      {
        ...auth,
        ...doc({
          tag: 'accounts',
          summary: 'The caller (only ever their own address)',
          auth: true,
          query: z.object({ email: z.string().optional() }),
          response: userInfoResponse,
          errors: [403],
        }),
      },
      async (request) => {
        const query = request.query as { email?: unknown };
        const email = typeof query.email === 'string' ? query.email : undefined;
        return service.userInfo(principalOf(request), email);
      },
    );

    app.get(
      '/users/:id',
      {
        ...auth,
        ...doc({
          tag: 'accounts',
          summary: "A student's public name",
          auth: true,
          params: idParam,
          response: publicUserResponse,
          errors: [400, 404],
        }),
      },
      async (request) => {
        const params = idParam.safeParse(request.params);
        if (!params.success) throw badRequest(USER_ID_INVALID);
        return service.publicUser(principalOf(request), params.data.id);
      },
    );
  };
}

/** Spec §5: 'Please give all details' when every field is empty; otherwise the field's own message. */
function allDetailsPresent(body: unknown): unknown {
  const b = (body ?? {}) as Record<string, unknown>;
  const fields = ['firstName', 'lastName', 'email', 'password'];
  if (fields.every((f) => typeof b[f] !== 'string' || (b[f] as string).trim() === '')) {
    throw badRequest(MESSAGES.giveAllDetails);
  }
  return b;
}
