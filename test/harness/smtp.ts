// An in-process SMTP server that keeps every message it receives, parsed, for assertions.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  envelope: { from: string | null; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
  subject: string | undefined;
  text: string | undefined;
  messageId: string | undefined;
  inReplyTo: string | undefined;
  references: string[];
  /** Lower-cased header name → decoded value (mailparser's map). */
  headers: ParsedMail['headers'];
  header(name: string): string | undefined;
}

export interface SmtpCapture {
  port: number;
  url: string;
  messages: CapturedMail[];
  waitFor(n: number, timeoutMs?: number): Promise<CapturedMail[]>;
  stop(): Promise<void>;
}

/** A header as text: mailparser keeps structured headers as objects ({ value }, { text }, Date). */
function headerText(parsed: ParsedMail, name: string): string | undefined {
  const v: unknown = parsed.headers.get(name.toLowerCase());
  if (v === undefined || v === null) return undefined;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object' && 'text' in v) return String(v.text);
  if (typeof v === 'object' && 'value' in v) return String(v.value);
  return String(v);
}

export interface SmtpCaptureOptions {
  /** Listen on this port (to bring a stopped server back where its clients look for it). */
  port?: number;
  /** Each message is answered this much later: a slow relay, to widen windows in crash tests. */
  delayMs?: number;
}

export async function startSmtpCapture(opts: SmtpCaptureOptions = {}): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'], // plain loopback: no certificates in tests
    logger: false,
    async onData(stream, session, callback) {
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        const raw = Buffer.concat(chunks);
        const parsed = await simpleParser(raw);
        const refs = parsed.references;
        messages.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          raw,
          parsed,
          subject: parsed.subject,
          text: parsed.text,
          messageId: parsed.messageId,
          inReplyTo: parsed.inReplyTo,
          references: refs === undefined ? [] : Array.isArray(refs) ? refs : [refs],
          headers: parsed.headers,
          header: (name) => headerText(parsed, name),
        });
        for (const w of waiters) w();
        if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
  });
  // A client that dies mid-session (a crash test's SIGKILL) resets its connection: not our error.
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(n, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < n) return;
          cleanup();
          resolve(messages.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`expected ${n} mail(s) within ${timeoutMs} ms, got ${messages.length}`));
        }, timeoutMs);
        const cleanup = () => (clearTimeout(timer), waiters.delete(check));
        waiters.add(check);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
