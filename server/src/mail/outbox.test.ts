import { readOutbox } from './mailer.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { codeFrom, createTestApp, type TestApp } from '../../test/helper.js';

/** The embedded default: no SMTP_URL, so mail goes to the development outbox. */
const outboxEnv = { SMTP_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'trace' };

describe('the development outbox answers only a direct request from this machine', () => {
  let t: TestApp;
  let proxied: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ env: outboxEnv, logger: true, logStream: { write: (l) => lines.push(l) } });
    proxied = await createTestApp({ env: { ...outboxEnv, TRUST_PROXY: 'true', LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => {
    await t.close();
    await proxied.close();
  });

  const get = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    Promise.all(
      ['/dev/outbox', '/dev/outbox.json'].map((url) =>
        app.app.inject({ method: 'GET', url, remoteAddress, headers }).then((r) => r.statusCode),
      ),
    );

  it('says where it is in the start-up log', () => {
    expect(lines.join('\n')).toMatch(/development outbox at http:\/\/localhost:\d+\/dev\/outbox/);
  });

  it('answers loopback (IPv4, IPv6, mapped) with no proxy header', async () => {
    expect(await get(t, '127.0.0.1')).toEqual([200, 200]);
    expect(await get(t, '::1')).toEqual([200, 200]);
    expect(await get(t, '::ffff:127.0.0.1')).toEqual([200, 200]);
  });

  it('answers 404 to anyone else on the network', async () => {
    expect(await get(t, '192.168.1.23')).toEqual([404, 404]);
    expect(await get(t, '10.0.0.8')).toEqual([404, 404]);
  });

  it('answers 404 through a proxy on the same machine, whatever TRUST_PROXY says', async () => {
    expect(await get(t, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).toEqual([404, 404]);
    expect(await get(t, '127.0.0.1', { forwarded: 'for=203.0.113.9' })).toEqual([404, 404]);
    expect(await get(proxied, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).toEqual([404, 404]);
    expect(await get(proxied, '10.0.0.8', { 'x-forwarded-for': '127.0.0.1' })).toEqual([404, 404]);
    expect(await get(proxied, '127.0.0.1')).toEqual([200, 200]);
  });

  it('a code is never written to the log, at any level', async () => {
    const email = `outbox-${Date.now().toString(36)}@msu.edu`;
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/public/sign-up',
      payload: { firstName: 'Log', lastName: 'Reader', email, password: 'never-in-logs-1' },
    });
    expect(signUp.statusCode).toBe(201);
    await t.app.inject({ method: 'POST', url: '/public/password/forgot', payload: { email } });
    await t.app.ctx.jobs.runDue();
    const outbox = await readOutbox(path.join(t.dataDir, 'outbox'));
    expect(outbox.length).toBeGreaterThanOrEqual(2);
    const codes = outbox.map((m) => String(codeFrom({ ...m, to: m.to })));
    const log = lines.join('\n');
    expect(log).toContain('mail saved to the development outbox');
    for (const code of codes) expect(log).not.toContain(code);
  });
});

describe('production needs a mail server', () => {
  const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/cm-config-test' };
  it('refuses NODE_ENV=production without SMTP_URL, naming SMTP_URL', () => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', SMTP_URL: '' })).toThrow(/SMTP_URL/);
  });
  it('starts in production with SMTP_URL, and in development without it (npm start on a laptop)', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' }).smtpUrl).toBe(
      'smtp://mail:25',
    );
    expect(loadConfig({ ...base }).smtpUrl).toBeUndefined();
  });
});
