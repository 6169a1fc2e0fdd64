import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../../test/helper.js';
import { backoffMs } from '../jobs/index.js';

/**
 * A real SMTP server that receives the first message in full and then answers 451 (what a client
 * sees when the server's answer is lost or late): the sender must retry, and the receiver now holds
 * the same e-mail twice. It records each message's Message-ID.
 */
async function flakySmtp(): Promise<{ url: string; ids: string[]; stop(): Promise<void> }> {
  const ids: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          ids.push(mail.messageId ?? '');
          if (ids.length === 1) {
            const err = new Error('Timed out while queueing') as Error & { responseCode: number };
            err.responseCode = 451;
            callback(err);
          } else callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    ids,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(dialects)('one Message-ID per e-mail, whatever the retries (%s)', (dialect) => {
  let t: TestApp | undefined;
  let smtp: Awaited<ReturnType<typeof flakySmtp>> | undefined;
  afterEach(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('a code e-mail sent again after a failed attempt carries the same Message-ID', async () => {
    smtp = await flakySmtp();
    t = await createTestApp({ dialect, jobWorker: false, env: { SMTP_URL: smtp.url } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/sign-up',
      payload: {
        firstName: 'Re',
        lastName: 'Try',
        email: 'retry-mail@msu.edu',
        password: 'green-and-white-42',
      },
    });
    expect(res.statusCode).toBe(201);
    await t.app.ctx.jobs.runDue();
    expect(smtp.ids).toHaveLength(1);
    t.clock.advance(backoffMs(1));
    await t.app.ctx.jobs.runDue();
    expect(smtp.ids).toHaveLength(2);
    expect(smtp.ids[0]).toMatch(/^<[^@\s]+@[^>\s]+>$/);
    expect(smtp.ids[1]).toBe(smtp.ids[0]);
  });
});
