import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.js';
import {
  contentSecurityPolicy,
  registerResponseHeaders,
  replyHeadersSymbol,
  requestIdGenerator,
  securityHeaders,
  webSocketUrl,
} from './security-headers.js';

/** The policy the app used to hand to @fastify/helmet on every request; now precomputed. */
const HELMET_POLICY = (production: boolean) => ({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'", 'ws://localhost:3000/ws'],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginResourcePolicy: { policy: 'same-origin' as const },
  hsts: production,
});

const EXPECTED: Record<string, string> = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self';form-action 'self';frame-ancestors 'none';img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self' ws://localhost:3000/ws",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers @fastify/helmet itself sets with the policy. */
async function helmetHeaders(production: boolean): Promise<Record<string, string>> {
  const app = Fastify();
  await app.register(helmet, HELMET_POLICY(production));
  app.get('/', async () => ({ ok: true }));
  const res = await app.inject({ url: '/' });
  await app.close();
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    if (['content-type', 'content-length', 'date', 'connection'].includes(k)) continue;
    out[k] = String(v);
  }
  return out;
}

describe('security headers', () => {
  it('are exactly the headers @fastify/helmet sets with our policy', async () => {
    const local = 'http://localhost:3000';
    expect(securityHeaders(false, local)).toEqual(await helmetHeaders(false));
    expect(securityHeaders(true, local)).toEqual(await helmetHeaders(true));
    expect(securityHeaders(false, local)).toEqual(EXPECTED);
    expect(securityHeaders(true, local)).toEqual({ ...EXPECTED, 'strict-transport-security': HSTS });
    expect(contentSecurityPolicy(local)).toBe(EXPECTED['content-security-policy']);
  });

  it("connect-src allows this origin's WebSocket URL only, never ws:/wss: to any host", async () => {
    expect(webSocketUrl('https://market.example.edu')).toBe('wss://market.example.edu/ws');
    expect(webSocketUrl('http://127.0.0.1:3110')).toBe('ws://127.0.0.1:3110/ws');
    const t = await createTestApp({ env: { PUBLIC_URL: 'https://market.example.edu' } });
    try {
      const res = await t.app.inject({ url: '/healthz' });
      const connectSrc = String(res.headers['content-security-policy'])
        .split(';')
        .find((d) => d.startsWith('connect-src'));
      expect(connectSrc).toBe("connect-src 'self' wss://market.example.edu/ws");
      const sources = connectSrc?.split(' ').slice(1) ?? [];
      expect(sources).not.toContain('ws:');
      expect(sources).not.toContain('wss:');
    } finally {
      await t.close();
    }
  });

  describe.each([
    ['test', false],
    ['production', true],
  ] as const)('on every answer (NODE_ENV=%s)', (nodeEnv, production) => {
    let t: TestApp;
    let webDist: string;
    const expected = production ? { ...EXPECTED, 'strict-transport-security': HSTS } : EXPECTED;

    beforeAll(async () => {
      webDist = await mkdtemp(path.join(tmpdir(), 'cm-web-'));
      await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Campus Market</title>');
      t = await createTestApp({ webDist, env: { NODE_ENV: nodeEnv } });
    });
    afterAll(async () => {
      await t.close();
      await rm(webDist, { recursive: true, force: true });
    });

    it.each([
      ['an HTML page', '/', 'text/html', 200],
      ['an SPA route', '/listings/some/page', 'text/html', 200],
      ['an API answer', '/healthz', 'application/json', 200],
      ['an API error', '/listings/recent', 'application/json', 401],
      ['an API 404', '/no/such/thing', 'application/json', 404],
    ])('%s', async (_what, url, accept, status) => {
      const res = await t.app.inject({ url, headers: { accept } });
      expect(res.statusCode).toBe(status);
      for (const [name, value] of Object.entries(expected)) expect(res.headers[name], name).toBe(value);
      if (!production) expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/^[\w-]{1,64}$/);
      if (accept === 'text/html') expect(res.headers['content-type']).toMatch(/^text\/html/);
    });
  });
});

describe('the one-step header copy', () => {
  it("finds this Fastify's header bag, so hot reads take the one-step path", async () => {
    const app = Fastify();
    let found: symbol | undefined;
    app.get('/', (_request, reply) => {
      found = replyHeadersSymbol(reply);
      return 'ok';
    });
    await app.inject({ url: '/' });
    await app.close();
    expect(found?.description).toBe('fastify.reply.headers');
  });

  it('leaves a header set before it, and a route can still replace one of its headers', async () => {
    const app = Fastify();
    // Another onRequest hook ahead of ours: the bag is no longer empty, the fallback keeps both.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('x-early', 'yes');
      done();
    });
    registerResponseHeaders(app, false, 'http://localhost:3000');
    app.get('/a', () => 'a');
    app.get('/b', (_request, reply) => reply.header('x-frame-options', 'DENY').send('b'));
    const a = await app.inject({ url: '/a' });
    const b = await app.inject({ url: '/b' });
    await app.close();
    expect(a.headers['x-early']).toBe('yes');
    expect(a.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(a.headers['x-request-id']).toBeTruthy();
    expect(b.headers['x-frame-options']).toBe('DENY');
    expect(b.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('request ids', () => {
  it('keeps a well-formed x-request-id from the caller and makes unique ones otherwise', () => {
    const gen = requestIdGenerator();
    expect(gen({ headers: { 'x-request-id': 'abc-123_x' } })).toBe('abc-123_x');
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i += 1) ids.add(gen({ headers: { 'x-request-id': 'bad id!' } }));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[\w-]{1,64}$/);
    expect(requestIdGenerator()({ headers: {} })).not.toBe(gen({ headers: {} }));
  });

  it('answers with the request id', async () => {
    const t = await createTestApp();
    try {
      const mine = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-42' } });
      expect(mine.headers['x-request-id']).toBe('trace-42');
      const a = await t.app.inject({ url: '/healthz' });
      const b = await t.app.inject({ url: '/healthz' });
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    } finally {
      await t.close();
    }
  });
});
