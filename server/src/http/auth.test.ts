import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext, Principal } from '../context.js';
import { principalOf, requireAuth } from './auth.js';

/** Tokens the fake authentication knows; a token removed from it is refused from then on. */
const known = new Map<string, Principal>([
  ['tok-ada', { userId: 1, email: 'ada@msu.edu', tokenVersion: 0, campusId: 1 }],
  ['tok-bob', { userId: 2, email: 'bob@msu.edu', tokenVersion: 0, campusId: 1 }],
]);

const ctx = {
  authenticate: async (token: string) => known.get(token) ?? null,
  authenticateCached: (token: string) => known.get(token),
} as unknown as AppContext;

describe('requireAuth over one keep-alive connection', () => {
  let app: FastifyInstance;
  let port: number;
  // One socket, kept alive: every request below travels on the same connection.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    app = Fastify();
    app.addHook('preHandler', requireAuth(ctx));
    app.get('/me', async (request) => ({ userId: principalOf(request).userId }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    agent.destroy();
    await app.close();
  });

  const me = (authorization?: string) =>
    new Promise<{ status: number; body: { userId?: number } }>((resolve, reject) => {
      const headers = authorization ? { authorization } : {};
      http
        .get({ host: '127.0.0.1', port, path: '/me', headers, agent }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        })
        .on('error', reject);
    });

  it('answers each request as the token it carries, not the one parsed before on the connection', async () => {
    const sockets = new Set<unknown>();
    app.server.on('connection', (s) => sockets.add(s));
    expect(await me('Bearer tok-ada')).toEqual({ status: 200, body: { userId: 1 } });
    expect(await me('Bearer tok-ada')).toEqual({ status: 200, body: { userId: 1 } });
    expect(await me('Bearer tok-bob')).toEqual({ status: 200, body: { userId: 2 } });
    expect(await me('bearer   tok-ada')).toEqual({ status: 200, body: { userId: 1 } });
    expect((await me()).status).toBe(401);
    expect((await me('Bearer tok-nobody')).status).toBe(401);
    expect((await me('Basic tok-ada')).status).toBe(401);
    expect(await me('Bearer tok-ada')).toEqual({ status: 200, body: { userId: 1 } });
    expect(sockets.size).toBe(1);
  });

  it('refuses a token revoked since the connection last sent it', async () => {
    expect((await me('Bearer tok-bob')).status).toBe(200);
    known.delete('tok-bob');
    expect((await me('Bearer tok-bob')).status).toBe(401);
  });
});
