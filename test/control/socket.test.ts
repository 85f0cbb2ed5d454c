// The control socket without a database: what goes over the wire, what a client is told when
// nobody listens, and that an internal failure is never shown to the asker.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/client.ts';
import { createLogger } from '../../src/logger.ts';
import { OperationError, type OperationContext } from '../../src/control/operations.ts';
import { callControl, NoServiceError, startControlServer, type ControlServer } from '../../src/control/socket.ts';

let dir: string;
let file: string;
let server: ControlServer;
const actors: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sf-sock-'));
  file = join(dir, 'sf.sock');
  await writeFile(file, 'left by a service that died'); // removed at start
  const broken = new Proxy({} as Db, {
    get() {
      throw new Error('connection to server at "10.0.0.1" failed: password authentication failed for user "sf"');
    },
  });
  const ctx = (actor: string): OperationContext => {
    actors.push(actor);
    return {
      db: broken,
      config: loadConfig({}),
      log: createLogger('silent'),
      actor,
      receive: async () => ({ id: 1, duplicate: true, result: { status: 'already', outcome: 'sheet' } }),
    };
  };
  server = await startControlServer(file, ctx, createLogger('silent'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A request written by hand, to see the status and body a client library would hide. */
function rawPost(path: string, payload: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: file, method: 'POST', path, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the control socket', () => {
  it('is a socket only its user may use', async () => {
    const s = await stat(file);
    expect(s.isSocket()).toBe(true);
    expect(s.mode & 0o777).toBe(0o600);
  });

  it('runs an operation and answers its result, with the asker as the actor', async () => {
    const r = await callControl(file, 'mail.ingest', { rawBase64: 'eA==', sourceKey: 'k' }, 'cli:ann');
    expect(r).toEqual({ inbound: 1, duplicate: true, status: 'already', outcome: 'sheet' });
    expect(actors.at(-1)).toBe('cli:ann');
  });

  it('answers a typed error for what the asker can fix', async () => {
    const err = await callControl(file, 'game.show', {}, 'cli:ann').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationError);
    expect(err).toMatchObject({ code: 'bad-arguments', field: 'gameId' });
  });

  it('never shows an internal error’s text', async () => {
    const err = await callControl(file, 'game.list', {}, 'cli:ann').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'internal', message: 'the service could not do it (see its log)' });
    expect((err as Error).message).not.toContain('password');
  });

  it('answers a request it cannot read without internals', async () => {
    const answer = await rawPost('/operations/game.list', '{ not json');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'bad-request', message: 'the request could not be read' } });
  });

  it('tells a client that nobody listens, so that it opens the database itself', async () => {
    await expect(callControl(join(dir, 'nobody.sock'), 'game.list', {}, 'cli:ann')).rejects.toBeInstanceOf(NoServiceError);
  });

  it('trusts no error code it does not know: a service of another version may answer anything', async () => {
    const other = join(dir, 'other.sock');
    const liar = http.createServer((_req, res) =>
      res.end(JSON.stringify({ error: { code: 'pg-error', message: 'SELECT secret FROM players' } })),
    );
    await new Promise<void>((resolve) => liar.listen(other, resolve));
    try {
      const err = await callControl(other, 'game.list', {}, 'cli:ann').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OperationError);
      expect(err).toMatchObject({ code: 'internal', message: 'the service could not do it (see its log)' });
    } finally {
      await new Promise((resolve) => liar.close(resolve));
    }
  });

  it('answers a refusal with the status of its code (one table for every HTTP surface)', async () => {
    const answer = await rawPost('/operations/no.such', '{}');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'unknown-operation' } });
  });
});
