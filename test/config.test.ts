import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parsePgUrl } from 'pg-connection-string';
import { CONFIG_VARIABLES, ConfigError, loadConfig, mailFromAddress } from '../src/config.ts';

const error = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).message;
  }
  throw new Error('no error');
};

describe('DKIM', () => {
  it('is off by default, needs a selector and a key file together, and signs for MAIL_DOMAIN unless told otherwise', () => {
    expect(loadConfig({}).mail.dkim).toBeNull();
    expect(loadConfig({ MAIL_DOMAIN: 'sf.example', DKIM_SELECTOR: 'sf2026', DKIM_PRIVATE_KEY_FILE: 'key.pem' }).mail.dkim).toEqual({
      domainName: 'sf.example',
      keySelector: 'sf2026',
      privateKeyFile: path.resolve('key.pem'),
    });
    expect(error({ DKIM_SELECTOR: 'sf2026' })).toMatch(/DKIM_PRIVATE_KEY_FILE must be set too/);
    expect(error({ DKIM_PRIVATE_KEY_FILE: 'k.pem' })).toMatch(/DKIM_SELECTOR must be set too/);
    expect(error({ DKIM_SELECTOR: 'bad selector', DKIM_PRIVATE_KEY_FILE: 'k.pem' })).toMatch(/DKIM_SELECTOR/);
  });
});

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const c = loadConfig({});
    const data = path.resolve('data');
    expect(c).toEqual({
      dataDir: data,
      database: { kind: 'pglite', dataDir: path.join(data, 'db') },
      http: { host: '127.0.0.1', port: 8080, publicUrl: 'http://127.0.0.1:8080', trustProxy: false },
      mail: {
        domain: 'localhost',
        ordersLocalPart: 'orders',
        from: 'Starts Foundation <orders@localhost>',
        imap: null,
        smtpUrl: null,
        dkim: null,
        outboxDir: path.join(data, 'mail', 'outbox'),
        maildir: path.join(data, 'mail', 'inbox'),
        maxBytes: 10 * 1024 * 1024,
        replyRateLimitPerHour: 20,
        operatorAddress: null,
      },
      lateCloseMarginMs: 15 * 60_000,
      logLevel: 'info',
    });
  });

  it('is frozen all the way down', () => {
    const c = loadConfig({});
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.mail)).toBe(true);
    expect(() => {
      (c.http as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      DATA_DIR: '/srv/sf',
      DATABASE_URL: 'postgres://sf@db.example.org/sf',
      DATABASE_PASSWORD: 'pw',
      DATABASE_CONNECT_RETRY_SECONDS: '5',
      HTTP_HOST: '0.0.0.0',
      HTTP_PORT: '9000',
      PUBLIC_URL: 'https://sf.example.org/',
      MAIL_DOMAIN: 'sf.example.org',
      ORDERS_LOCAL_PART: 'ordini',
      IMAP_HOST: 'imap.example.org',
      IMAP_USER: 'ordini',
      IMAP_PASSWORD: 's3cret',
      IMAP_SECURE: 'false',
      IMAP_MAILBOX: 'Orders',
      SMTP_URL: 'smtps://u:p@smtp.example.org:465',
      MAILDIR: '/var/mail/sf',
      MAX_MAIL_BYTES: '2000000',
      REPLY_RATE_LIMIT_PER_HOUR: '5',
      OPERATOR_ADDRESS: 'Ops@Example.org',
      LATE_CLOSE_MARGIN_MINUTES: '45',
      LOG_LEVEL: 'debug',
    });
    expect(c.lateCloseMarginMs).toBe(45 * 60_000);
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://sf:pw@db.example.org/sf', connectRetryMs: 5000 });
    expect(c.http).toEqual({ host: '0.0.0.0', port: 9000, publicUrl: 'https://sf.example.org', trustProxy: false });
    expect(c.mail).toMatchObject({
      domain: 'sf.example.org',
      ordersLocalPart: 'ordini',
      from: 'Starts Foundation <ordini@sf.example.org>',
      smtpUrl: 'smtps://u:p@smtp.example.org:465',
      outboxDir: '/srv/sf/mail/outbox',
      maildir: '/var/mail/sf',
      maxBytes: 2_000_000,
      replyRateLimitPerHour: 5,
      operatorAddress: 'ops@example.org',
    });
    // Plain IMAP defaults to port 143; the processed mailbox to "Processed".
    expect(c.mail.imap).toEqual({
      host: 'imap.example.org',
      port: 143,
      user: 'ordini',
      password: 's3cret',
      secure: false,
      mailbox: 'Orders',
      processedMailbox: 'Processed',
    });
    expect(c.logLevel).toBe('debug');
    expect(loadConfig({ IMAP_HOST: 'h', IMAP_USER: 'u', IMAP_PASSWORD: 'p' }).mail.imap).toMatchObject({ port: 993, secure: true });
  });

  it('waits 60 s for PostgreSQL by default, and not at all with 0', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://sf@db/sf' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://sf@db/sf',
      connectRetryMs: 60_000,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://sf@db/sf', DATABASE_CONNECT_RETRY_SECONDS: '0' }).database).toMatchObject({
      connectRetryMs: 0,
    });
  });

  it('puts DATABASE_PASSWORD into the URL percent-encoded, so that pg reads back exactly that password', () => {
    for (const password of ['p@ss:w/rd', 'a%41b', 'x#y?z&w=1', 'sp ace', 'ünï €', 'q\'"`$']) {
      const c = loadConfig({ DATABASE_URL: 'postgresql://sf@db:5433/games?sslmode=disable', DATABASE_PASSWORD: password });
      if (c.database.kind !== 'postgres') throw new Error('not postgres');
      const parsed = parsePgUrl(c.database.url);
      expect(parsed).toMatchObject({ user: 'sf', password, host: 'db', port: '5433', database: 'games' });
    }
  });

  it('refuses a password given twice, or without a user', () => {
    expect(error({ DATABASE_URL: 'postgres://sf:old@db/sf', DATABASE_PASSWORD: 'new' })).toBe(
      'configuration: DATABASE_PASSWORD is set but DATABASE_URL already has a password: keep only one',
    );
    expect(error({ DATABASE_URL: 'postgres://db/sf', DATABASE_PASSWORD: 'p' })).toContain('DATABASE_URL must name a user');
    expect(error({ DATABASE_URL: 'postgres://sf@db/sf', DATABASE_CONNECT_RETRY_SECONDS: '-1' })).toContain(
      'DATABASE_CONNECT_RETRY_SECONDS must be a whole number of seconds',
    );
  });

  it('reads exactly the variables it lists in CONFIG_VARIABLES', () => {
    const read = new Set<string>();
    const watching = (env: Record<string, string>) =>
      new Proxy(env, {
        get(target, name) {
          if (typeof name === 'string') read.add(name);
          return target[name as string];
        },
      });
    loadConfig(watching({}));
    loadConfig(
      watching({ DATABASE_URL: 'postgres://sf@db/sf', DATABASE_PASSWORD: 'p', IMAP_HOST: 'h', IMAP_USER: 'u', IMAP_PASSWORD: 'p' }),
    );
    expect([...read].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('reads TRUST_PROXY as true/false, a number of proxies, or a list of proxy addresses and networks', () => {
    const trust = (v: string) => loadConfig({ TRUST_PROXY: v }).http.trustProxy;
    expect(loadConfig({}).http.trustProxy).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('false')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 172.16.0.0/12,loopback,fd00::/8')).toEqual(['10.0.0.1', '172.16.0.0/12', 'loopback', 'fd00::/8']);
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example.org', '10.0.0.1/8/2', '1.2.3']) {
      expect(error({ TRUST_PROXY: bad })).toContain('configuration: TRUST_PROXY must be true, false, a number of proxies');
    }
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', HTTP_PORT: ' ' }).database.kind).toBe('pglite');
  });

  it('names the bad variable in one line', () => {
    for (const [env, text] of [
      [{ HTTP_PORT: 'eighty' }, 'configuration: HTTP_PORT must be a port number from 1 to 65535 (got "eighty")'],
      [{ HTTP_PORT: '70000' }, 'HTTP_PORT must be a port number'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
      [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL must be an http:// or https:// URL'],
      [{ MAX_MAIL_BYTES: '0' }, 'MAX_MAIL_BYTES must be a whole number'],
      [{ REPLY_RATE_LIMIT_PER_HOUR: '2.5' }, 'REPLY_RATE_LIMIT_PER_HOUR must be a whole number'],
      [{ OPERATOR_ADDRESS: 'nobody' }, 'OPERATOR_ADDRESS must be an address'],
      [{ ORDERS_LOCAL_PART: 'orders+x' }, 'ORDERS_LOCAL_PART must be'],
      [{ MAIL_DOMAIN: 'not a domain' }, 'MAIL_DOMAIN must be a host name'],
      [{ IMAP_HOST: 'imap.example.org' }, 'IMAP_USER is required when IMAP_HOST is set'],
      [{ IMAP_HOST: 'h', IMAP_USER: 'u', IMAP_PASSWORD: 'p', IMAP_SECURE: 'maybe' }, 'IMAP_SECURE must be true or false'],
    ] as const) {
      const message = error(env);
      expect(message).toContain(text);
      expect(message).not.toContain('\n');
    }
  });

  it('never echoes a secret', () => {
    expect(error({ DATABASE_URL: 'mysql://root:hunter2@db' })).toBe(
      'configuration: DATABASE_URL must be a postgres:// or postgresql:// URL',
    );
    expect(error({ SMTP_URL: 'http://u:hunter2@x' })).not.toContain('hunter2');
    expect(error({ DATABASE_URL: 'postgres://sf:hunter2@db/sf', DATABASE_PASSWORD: 'hunter3' })).not.toMatch(/hunter/);
  });

  it('reads the address of MAIL_FROM in one place, for intake and sf mail inspect alike', () => {
    expect(mailFromAddress(loadConfig({ MAIL_FROM: 'Starts Foundation <Orders@SF.example.org> ' }).mail)).toBe('orders@sf.example.org');
    expect(mailFromAddress(loadConfig({ MAIL_FROM: 'orders@sf.example.org' }).mail)).toBe('orders@sf.example.org');
    expect(mailFromAddress(loadConfig({ MAIL_DOMAIN: 'sf.example.org' }).mail)).toBe('orders@sf.example.org');
  });

  it('reads process.env by default', () => {
    expect(loadConfig().logLevel).toBeTypeOf('string');
  });
});
