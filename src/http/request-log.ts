// Request logging at the price of one line (bench:http measures it). Fastify makes a pino child
// logger for every request (a measurable share of a cached page's cost even when nothing is
// logged) and, at info, writes two lines per request. Here a request's logger is made only when
// something logs through it, and the request is logged once, when it completes, with everything
// both of Fastify's lines held: reqId, method, url, host, remote address and port, status, time —
// at info, or at debug for a routine public read (D-WEB-3). `incoming request` stays available at
// debug, for a request that never completes.
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilent, LogFn, Logger } from 'pino';

/** Whether `log` writes at `level` (pino says; a logger that cannot say counts as writing). */
function logsAt(log: FastifyBaseLogger, level: Exclude<LevelWithSilent, 'silent'>): boolean {
  return (log as Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.(level) ?? true;
}

/** A request's logger: the pino child with the request's bindings, made on first use. */
export class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {}

  /** The pino child itself, made now if it is not yet. */
  get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings));
  }

  get level(): string {
    return this.made ? this.made.level : this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const) {
  // On the prototype: a request's logger is then one small object with three fields.
  Object.defineProperty(RequestLogger.prototype, level, {
    value: function (this: RequestLogger, ...args: Parameters<LogFn>) {
      this.real[level](...args);
    },
  });
}

/** Fastify's childLoggerFactory: the child made lazily, unless the route asks for its own level or serializers. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  if (opts.level !== undefined || opts.serializers !== undefined) return logger.child(bindings, opts);
  return new RequestLogger(logger, bindings);
}

/**
 * Fastify's request log lines, written through the app's logger with the request id as a field
 * (the same JSON as a child's line), so that a request that logs nothing else never makes its child.
 * Errors, 404s and the rest keep Fastify's own lines.
 */
export class OneLineRequestLog extends LogController {
  private log: FastifyBaseLogger | null = null;

  /** The app's logger (app.log: Fastify's serializers for req, res and err); until then nothing is written here. */
  use(log: FastifyBaseLogger): void {
    this.log = log;
  }

  override incomingRequest(request: FastifyRequest): void {
    const log = this.log;
    if (log && logsAt(log, 'debug')) log.debug({ [this.requestIdLogLabel]: request.id, req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const log = this.log;
    const level = routineRead(request, reply) ? 'debug' : 'info';
    if (log && logsAt(log, level)) {
      log[level]({ [this.requestIdLogLabel]: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}

/**
 * D-WEB-3: a public page, feed or API answer read successfully is logged at debug. At info such
 * lines would be most of the log (every visitor, every health check) and cost the public pages
 * about a quarter of their speed (bench:http); what an operator acts on — the referee console, every write,
 * every 4xx and 5xx — stays at info.
 */
function routineRead(request: FastifyRequest, reply: FastifyReply): boolean {
  const method = request.method;
  return (method === 'GET' || method === 'HEAD') && reply.statusCode < 400 && !request.url.startsWith('/referee');
}
