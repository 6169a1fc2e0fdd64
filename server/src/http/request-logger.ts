import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyLogFn as LogFn,
} from 'fastify';

/** pino's bindings and child options, as Fastify's child logger factory passes them. */
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/** What Fastify's pino logger offers beyond FastifyBaseLogger, and this class uses. */
interface Logger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
  bindings(): Bindings;
}
type LevelWithSilentOrString = FastifyBaseLogger['level'];

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * A request's logger (`request.log`) that builds its pino child — the request id bound into every
 * line — only when the request logs something its level lets through. Fastify makes one child per
 * request, and pino serialises the bindings on the spot (≈ 3 % of the server's CPU on a hot read
 * that logs nothing at `warn`). The lines written are the child's, unchanged. The log methods live
 * on the prototype: nothing but the object itself is allocated per request.
 */
export class RequestLogger implements FastifyBaseLogger {
  /** The pino child, once something was logged. */
  real: FastifyBaseLogger | undefined;
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  constructor(
    private readonly parent: Logger,
    private readonly bindingsOf: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  materialise(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindingsOf, this.options) as FastifyBaseLogger;
    return this.real;
  }

  get level(): LevelWithSilentOrString {
    return this.real ? this.real.level : this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.materialise().level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return ((this.real as Logger | undefined) ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.materialise().child(bindings, options);
  }

  bindings(): Bindings {
    return (this.materialise() as Logger).bindings();
  }
}

for (const level of LEVELS) {
  const write = function (this: RequestLogger, ...args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.materialise()[level] as (...a: unknown[]) => void)(...args);
  };
  Object.defineProperty(RequestLogger.prototype, level, { value: write, writable: true });
}
Object.defineProperty(RequestLogger.prototype, 'silent', { value: () => undefined, writable: true });

/** Fastify's `childLoggerFactory`: a lazy child per request (see RequestLogger). */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // Logging off (tests): Fastify's no-op logger, which has no levels to ask — its own child.
  if (typeof (logger as Partial<Logger>).isLevelEnabled !== 'function')
    return logger.child(bindings, options);
  return new RequestLogger(logger as Logger, bindings, options);
}

/** Whether a request's logger writes `info` lines (a logger without levels — logging off — does not). */
export function writesInfo(log: FastifyBaseLogger): boolean {
  const ask = (log as Partial<Logger>).isLevelEnabled;
  return typeof ask === 'function' && ask.call(log, 'info');
}

/**
 * Fastify's per-request lines ("incoming request", "request completed"), built only when the
 * request's logger writes `info`. Fastify builds each line's object and reads the response time
 * (a clock call) before the logger drops it at `warn` — on every request (hot reads).
 * At `info` and below the lines are Fastify's own, unchanged; a request that errored is always
 * handed to Fastify (its line is an `error`).
 */
export class LevelAwareLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (writesInfo(request.log)) super.incomingRequest(request, reply);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error || writesInfo(reply.log)) super.requestCompleted(error, request, reply);
  }
}
