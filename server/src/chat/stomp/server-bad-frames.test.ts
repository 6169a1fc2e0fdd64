/**
 * The STOMP server on its own (stomp/testing.ts's echo server). Bad frames: each protocol error
 * answers ERROR and closes the socket.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { header } from './frame.js';
import { rawClient, startEchoServer, stopEchoServer, type EchoServer } from './testing.js';

describe('STOMP server: bad frames get ERROR and close', () => {
  let h: EchoServer;
  beforeEach(async () => void (h = await startEchoServer()));
  afterEach(() => stopEchoServer(h));

  async function expectError(
    send: (raw: ReturnType<typeof rawClient>) => void,
    connect = true,
  ): Promise<string> {
    const raw = rawClient(h.url);
    await raw.opened;
    if (connect) {
      raw.sendFrame('CONNECT', { 'accept-version': '1.2', Authorization: 'Bearer user-1' });
      expect((await raw.nextFrame()).command).toBe('CONNECTED');
    }
    send(raw);
    const error = await raw.nextFrame();
    expect(error.command).toBe('ERROR');
    const { code } = await raw.closed;
    expect(code).toBeGreaterThanOrEqual(1000);
    return header(error, 'message') ?? '';
  }

  it('anything before CONNECT', async () => {
    expect(await expectError((raw) => raw.sendFrame('SEND', { destination: '/a' }, 'x'), false)).toBe(
      'CONNECT expected',
    );
  });

  it('an unknown command', async () => {
    expect(await expectError((raw) => raw.ws.send('HELLO\n\n\0'))).toMatch(/Unknown command/);
  });

  it('a missing required header', async () => {
    expect(await expectError((raw) => raw.sendFrame('SUBSCRIBE', { destination: '/a' }))).toBe(
      'Missing header: id',
    );
    expect(await expectError((raw) => raw.sendFrame('SEND', {}, 'x'))).toBe('Missing header: destination');
  });

  it('an undefined escape sequence', async () => {
    expect(await expectError((raw) => raw.ws.send('SEND\ndestination:/a\\x\n\n\0'))).toMatch(/escape/);
  });

  it('a frame over the size limit', async () => {
    const big = 'x'.repeat(70 * 1024);
    expect(await expectError((raw) => raw.sendFrame('SEND', { destination: '/a' }, big))).toMatch(
      /larger than 65536/,
    );
  });

  it('too many headers', async () => {
    const headers: Record<string, string> = { destination: '/a' };
    for (let i = 0; i < 40; i++) headers[`h${i}`] = 'v';
    expect(await expectError((raw) => raw.sendFrame('SEND', headers, 'x'))).toMatch(/More than 32 headers/);
  });

  it('a body on a frame that must not have one, and a second CONNECT', async () => {
    expect(
      await expectError((raw) => raw.sendFrame('SUBSCRIBE', { id: '1', destination: '/a' }, 'body')),
    ).toMatch(/must not have a body/);
    expect(await expectError((raw) => raw.sendFrame('CONNECT', { 'accept-version': '1.2' }))).toBe(
      'Already connected',
    );
  });

  it('a WebSocket message beyond maxPayload is refused by the socket layer', async () => {
    const raw = rawClient(h.url);
    await raw.opened;
    raw.ws.send(Buffer.alloc(200 * 1024, 0x41));
    expect((await raw.closed).code).toBe(1009);
  });
});
