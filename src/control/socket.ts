// The control socket: while the service owns an embedded database, `sf` commands reach it here
// instead of opening the database themselves (db-lock.ts: one owner). A unix domain socket in DATA_DIR, mode
// 0600 (only the service's user), serving POST /operations/<name> with JSON arguments; the answer
// is { result } or { error: { code, message, field? } } — never an internal error's text.
import { chmod, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AppError, errorMessage, isErrorCode } from '../errors.ts';
import { httpStatus } from '../http/error-status.ts';
import { OperationError, runOperation, type OperationContext } from './operations.ts';

export const socketPath = (dataDir: string) => path.join(dataDir, 'sf.sock');
const INTERNAL = 'the service could not do it (see its log)';
const MAX_SOCKET_PATH = 107;

export interface ControlServer {
  close(): Promise<void>;
}

/** Listens on `file`; a socket left there by a service that died is removed first (we hold the lock). */
export async function startControlServer(file: string, context: (actor: string) => OperationContext, log: Logger): Promise<ControlServer> {
  const app: FastifyInstance = Fastify({ bodyLimit: 64 * 1024 * 1024 });
  app.post<{ Params: { name: string }; Body: { actor?: unknown; args?: unknown } }>('/operations/:name', async (req, reply) => {
    const actor = typeof req.body?.actor === 'string' && req.body.actor.length <= 200 ? req.body.actor : 'cli:unknown';
    try {
      return { result: await runOperation(context(actor), req.params.name, req.body?.args) };
    } catch (err) {
      if (err instanceof OperationError)
        return reply.code(httpStatus(err.code)).send({ error: { code: err.code, message: err.message, field: err.field } });
      log.error({ err, operation: req.params.name }, 'control operation failed');
      return reply.code(httpStatus('internal')).send({ error: { code: 'internal', message: INTERNAL } });
    }
  });
  app.setErrorHandler((err: { statusCode?: number }, _req, reply) => {
    // Bad JSON, a body too large: the client's fault, said without internals.
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : httpStatus('internal');
    void reply
      .code(status)
      .send({ error: { code: 'bad-request', message: status === 413 ? 'the request is too large' : 'the request could not be read' } });
  });
  // The kernel keeps a socket's path in 108 bytes: a longer one cannot be listened on.
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH)
    throw new Error(
      `DATA_DIR ${path.dirname(file)} is too long a path for the control socket (${Buffer.byteLength(file)} bytes with /sf.sock, at most ${MAX_SOCKET_PATH}): set DATA_DIR to a shorter path`,
    );
  await rm(file, { force: true });
  await app.listen({ path: file });
  await chmod(file, 0o600);
  return {
    async close() {
      await app.close();
      await rm(file, { force: true });
    },
  };
}

/** Nobody answers on the socket: no service runs (or it is still starting). */
export class NoServiceError extends AppError {
  override name = 'NoServiceError';
  constructor(detail: string) {
    super('no-service', `${errorMessage('no-service')} (${detail})`);
  }
}

/**
 * Sends one operation to the service. Throws NoServiceError when nothing listens there,
 * OperationError for the service's answer that it could not.
 */
export function callControl(file: string, name: string, args: unknown, actor: string): Promise<unknown> {
  const body = JSON.stringify({ actor, args });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: file,
        agent: false,
        method: 'POST',
        path: `/operations/${encodeURIComponent(name)}`,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          let answer: { result?: unknown; error?: { code?: string; message?: string; field?: string } };
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof answer;
          } catch {
            reject(new OperationError('bad-answer', 'the service gave an answer that could not be read'));
            return;
          }
          // A code this sf does not know (another version) is not trusted to mean anything.
          const e = answer.error;
          if (e)
            reject(
              isErrorCode(e.code)
                ? new OperationError(e.code, e.message ?? errorMessage(e.code), e.field)
                : new OperationError('internal', INTERNAL),
            );
          else resolve(answer.result);
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // No socket file, or one left by a service that died: nobody is there.
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED' || err.code === 'ENOTSOCK') reject(new NoServiceError(err.message));
      else reject(err);
    });
    req.end(body);
  });
}
