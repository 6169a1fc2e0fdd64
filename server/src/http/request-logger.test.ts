import Fastify, { LogController } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LevelAwareLogController, lazyRequestLogger } from './request-logger.js';

function appLogging(level: string, lines: string[]) {
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => lines.push(line) } },
    childLoggerFactory: lazyRequestLogger,
    logController: new LevelAwareLogController(),
  });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/broken', async () => {
    throw new Error('the database went away');
  });
  app.get('/loud', async (request) => {
    request.log.warn({ listingId: 7 }, 'something to look at');
    request.log.debug('below the level');
    return { ok: true };
  });
  app.get('/child', async (request) => {
    request.log.child({ job: 'x' }).error('from a child');
    return { ok: true, level: request.log.level };
  });
  return app;
}

describe('request logger (built only when a request logs)', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => close?.());

  it('writes the same lines as a pino child: the request id on each, levels respected', async () => {
    const lines: string[] = [];
    const app = appLogging('info', lines);
    close = () => app.close();
    await app.inject({ url: '/loud', headers: { 'x-request-id': 'abc' } });
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const warn = parsed.find((l) => l.msg === 'something to look at');
    expect(warn).toMatchObject({ level: 40, reqId: expect.any(String), listingId: 7 });
    expect(parsed.some((l) => l.msg === 'below the level')).toBe(false);
    // Fastify's own request lines carry the same id.
    const ids = new Set(parsed.map((l) => l.reqId));
    expect(ids.size).toBe(1);
    expect(parsed.map((l) => l.msg)).toEqual([
      'incoming request',
      'something to look at',
      'request completed',
    ]);
  });

  it('a request that logs nothing at the level builds no child; one that logs builds it once', async () => {
    const lines: string[] = [];
    const app = appLogging('warn', lines);
    close = () => app.close();
    await app.ready();
    const child = vi.spyOn(app.log, 'child');
    expect((await app.inject({ url: '/quiet' })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    await app.inject({ url: '/loud' });
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toHaveLength(1);
  });

  it("at warn, Fastify's request lines are not even built, and a failing request is still logged", async () => {
    const lines: string[] = [];
    const app = appLogging('warn', lines);
    close = () => app.close();
    await app.ready();
    const completed = vi.spyOn(LogController.prototype, 'requestCompleted');
    const incoming = vi.spyOn(LogController.prototype, 'incomingRequest');
    await app.inject({ url: '/quiet' });
    expect(incoming).not.toHaveBeenCalled();
    expect(completed).not.toHaveBeenCalled();
    expect((await app.inject({ url: '/broken' })).statusCode).toBe(500);
    const errors = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ level: 50, reqId: expect.any(String), msg: 'the database went away' });
    completed.mockRestore();
    incoming.mockRestore();
  });

  it('at info, the request lines are exactly those of Fastify with its own controller', async () => {
    const ours: string[] = [];
    const theirs: string[] = [];
    const a = appLogging('info', ours);
    const b = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => theirs.push(line) } },
      childLoggerFactory: lazyRequestLogger,
    });
    b.get('/quiet', async () => ({ ok: true }));
    close = async () => Promise.all([a.close(), b.close()]);
    for (const app of [a, b]) await app.inject({ url: '/quiet', headers: { 'x-request-id': 'same' } });
    const shape = (lines: string[]) =>
      lines.map((l) => {
        const {
          time: _t,
          pid: _p,
          hostname: _h,
          responseTime,
          ...rest
        } = JSON.parse(l) as Record<string, unknown>;
        return { ...rest, timed: typeof responseTime === 'number' } as Record<string, unknown>;
      });
    expect(shape(ours)).toEqual(shape(theirs));
    expect(shape(ours).map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('children and the level read through to pino', async () => {
    const lines: string[] = [];
    const app = appLogging('warn', lines);
    close = () => app.close();
    const res = await app.inject({ url: '/child' });
    expect(res.json()).toEqual({ ok: true, level: 'warn' });
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 50,
      job: 'x',
      reqId: expect.any(String),
      msg: 'from a child',
    });
  });

  it('with logging off, requests are answered and nothing is written', async () => {
    const app = Fastify({ logger: false, childLoggerFactory: lazyRequestLogger });
    close = () => app.close();
    app.get('/x', async (request) => {
      request.log.warn('nobody hears this');
      return { ok: true };
    });
    expect((await app.inject({ url: '/x' })).json()).toEqual({ ok: true });
  });
});
