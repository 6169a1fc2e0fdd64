import {
  MESSAGES,
  REFRESHED_TOKEN_HEADER,
  changePasswordSchema,
  emailOnlySchema,
  loginSchema,
  resetConfirmSchema,
  signUpSchema,
  verifySchema,
} from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAuth, principalOf } from '../http/auth.js';
import { badRequest, parseOr400 } from '../http/errors.js';
import type { LimitName } from '../http/rate-limit.js';
import type { AccountsService } from './service.js';

const idParam = z.object({ id: z.coerce.number().int().positive() });

export function accountsRoutes(ctx: AppContext, service: AccountsService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const limit = async (request: FastifyRequest, name: string, email: string) => {
      await ctx.limits.consume(`${name}:ip` as LimitName, request.ip);
      await ctx.limits.consume(`${name}:account` as LimitName, email);
    };
    const auth = { preHandler: requireAuth(ctx) };

    app.get('/public/campus', async () => ({
      campusName: ctx.config.campusName,
      allowedDomains: ctx.config.allowedEmailDomains,
      about: ctx.config.aboutText,
    }));

    app.post('/public/sign-up', async (request, reply) => {
      const body = parseOr400(signUpSchema, allDetailsPresent(request.body));
      await limit(request, 'signup', body.email);
      await service.signUp(body);
      return reply.code(201).send({ message: MESSAGES.signUpSuccess });
    });

    app.post('/public/verify', async (request) => {
      const body = parseOr400(verifySchema, request.body);
      await limit(request, 'verify', body.email);
      await service.verify(body.email, body.token);
      return { message: MESSAGES.verified };
    });

    app.post('/public/verify/resend', async (request) => {
      const body = parseOr400(emailOnlySchema, request.body);
      await limit(request, 'resend', body.email);
      await service.resendVerification(body.email);
      return { message: MESSAGES.codeResent };
    });

    app.post('/public/login', async (request, reply) => {
      const body = parseOr400(loginSchema, request.body);
      await limit(request, 'login', body.email);
      const token = await service.login(body.email, body.password);
      return reply.type('text/plain; charset=utf-8').send(token);
    });

    app.post('/public/password/forgot', async (request) => {
      const body = parseOr400(emailOnlySchema, request.body);
      await limit(request, 'forgot', body.email);
      await service.requestReset(body.email);
      return true;
    });

    app.post('/public/password/forgot/verify', async (request, reply) => {
      const body = parseOr400(resetConfirmSchema, request.body);
      await limit(request, 'reset', body.email);
      await service.confirmReset(body.email, body.token, body.newPassword);
      return reply.type('text/plain; charset=utf-8').send(MESSAGES.passwordResetDone);
    });

    app.put('/users/password/change', auth, async (request, reply) => {
      const principal = principalOf(request);
      const body = parseOr400(changePasswordSchema, request.body);
      await ctx.limits.consume('change:account', String(principal.userId));
      const token = await service.changePassword(principal, body);
      return reply
        .header(REFRESHED_TOKEN_HEADER, token)
        .type('text/plain; charset=utf-8')
        .send(MESSAGES.passwordChanged);
    });

    app.get('/users/info', auth, async (request) => {
      const query = request.query as { email?: unknown };
      const email = typeof query.email === 'string' ? query.email : undefined;
      return service.userInfo(principalOf(request), email);
    });

    app.get('/users/:id', auth, async (request) => {
      const params = idParam.safeParse(request.params);
      if (!params.success) throw badRequest('The user id must be a positive whole number');
      return service.publicUser(params.data.id);
    });
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
