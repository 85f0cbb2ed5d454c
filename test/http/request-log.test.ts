// Request logging (bench:http measures its cost): one line per request with what an operator needs, the
// request's child logger made only when something logs through it, route logs still carry reqId.
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, OneLineRequestLog } from '../../src/http/request-log.ts';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; remoteAddress?: string };
  res?: { statusCode: number };
  responseTime?: number;
  n?: number;
  err?: unknown;
}

async function appLoggingAt(level: string) {
  const lines: Line[] = [];
  const log = pino({ level }, { write: (l: string) => void lines.push(JSON.parse(l) as Line) });
  let children = 0;
  const child = log.child.bind(log);
  log.child = ((...args: Parameters<typeof log.child>) => {
    children++;
    return child(...args);
  }) as typeof log.child;
  const requestLog = new OneLineRequestLog();
  const app = Fastify({ loggerInstance: log, logController: requestLog, childLoggerFactory: lazyChildLogger });
  requestLog.use(app.log);
  app.get('/quiet', async () => 'ok');
  app.post('/quiet', async () => 'ok');
  app.get('/referee/quiet', async () => 'ok');
  app.get('/talks', async (req) => {
    req.log.info({ n: 7 }, 'a route line');
    return 'ok';
  });
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  await app.ready();
  // Made while the app starts (Fastify's own logger for it): only requests count below.
  children = 0;
  return { app, lines, children: () => children };
}

describe('request logging', () => {
  it('at info: one line per request an operator acts on, with the request, its status, its time and its id', async () => {
    const { app, lines } = await appLoggingAt('info');
    const res = await app.inject({ method: 'POST', url: '/quiet?x=1' });
    expect(res.statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: expect.any(String),
      req: { method: 'POST', url: '/quiet?x=1' },
      res: { statusCode: 200 },
    });
    expect(line!.responseTime).toBeGreaterThanOrEqual(0);
    // The referee console and a page that is not there are logged too.
    await app.inject({ url: '/referee/quiet' });
    await app.inject({ url: '/nowhere' });
    expect(lines.filter((l) => l.msg === 'request completed').map((l) => [l.req?.url, l.res?.statusCode])).toEqual([
      ['/quiet?x=1', 200],
      ['/referee/quiet', 200],
      ['/nowhere', 404],
    ]);
    await app.close();
  });

  it('D-WEB-3: a public page read successfully is logged at debug only', async () => {
    const info = await appLoggingAt('info');
    expect((await info.app.inject({ url: '/quiet' })).statusCode).toBe(200);
    expect((await info.app.inject({ method: 'HEAD', url: '/quiet' })).statusCode).toBe(200);
    expect(info.lines).toEqual([]);
    await info.app.close();
    const debug = await appLoggingAt('debug');
    await debug.app.inject({ url: '/quiet' });
    expect(debug.lines.filter((l) => l.msg === 'request completed')).toMatchObject([
      { level: 20, req: { url: '/quiet' }, res: { statusCode: 200 } },
    ]);
    await debug.app.close();
  });

  it('a request that logs nothing makes no child logger; one that logs gets its reqId on the line', async () => {
    const { app, lines, children } = await appLoggingAt('info');
    await app.inject({ method: 'POST', url: '/quiet' });
    expect(children()).toBe(0);
    await app.inject({ url: '/talks' });
    expect(children()).toBe(1);
    const own = lines.find((l) => l.msg === 'a route line')!;
    const done = lines.filter((l) => l.msg === 'request completed');
    expect(own).toMatchObject({ n: 7 });
    // The routine read of /talks is at debug; its own line carries its reqId, not the POST's.
    expect(done).toHaveLength(1);
    expect(own.reqId).toEqual(expect.any(String));
    expect(own.reqId).not.toBe(done[0]!.reqId);
    await app.close();
  });

  it('at debug also the incoming request; at warn no request lines, errors still logged', async () => {
    const debug = await appLoggingAt('debug');
    await debug.app.inject({ url: '/quiet' });
    expect(debug.lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(debug.lines[0]!.reqId).toBe(debug.lines[1]!.reqId);
    await debug.app.close();

    const warn = await appLoggingAt('warn');
    await warn.app.inject({ url: '/quiet' });
    expect(warn.lines).toEqual([]);
    expect(warn.children()).toBe(0);
    const res = await warn.app.inject({ url: '/fails' });
    expect(res.statusCode).toBe(500);
    expect(warn.lines.some((l) => l.level === 50 && typeof l.reqId === 'string')).toBe(true);
    await warn.app.close();
  });
});
