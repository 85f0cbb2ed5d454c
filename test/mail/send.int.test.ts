// The SMTP transport against an in-process SMTP server (test/harness/smtp.ts).
import { createHash, createPublicKey, createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createTransport } from '../../src/service.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTO_REPLIED, SF_ORIGIN_VALUE } from '../../src/mail/send/headers.ts';
import { createSmtpTransport } from '../../src/mail/send/smtp-transport.ts';
import { startSmtpCapture, type SmtpCapture } from '../harness/smtp.ts';

let smtp: SmtpCapture;
beforeEach(async () => {
  smtp = await startSmtpCapture();
});
afterEach(async () => {
  await smtp.stop();
});

describe('createSmtpTransport', () => {
  it('sends a threaded reply that carries our origin and Auto-Submitted headers', async () => {
    const transport = createSmtpTransport(smtp.url, pino({ level: 'silent' }));
    try {
      const res = await transport.send({
        from: 'Starts Foundation <moderator@sf.example>',
        to: 'Giulia <giulia@example.it>',
        subject: 'Re: [SF andromeda] ordini — turno 3',
        text: 'Ordini ricevuti: B2-C3, B2=F6.\nScadenza: venerdì 18:00.',
        messageId: 'reply-1@sf.example',
        inReplyTo: '<order-1@example.it>',
        references: ['<order-0@example.it>', 'order-1@example.it'],
        reply: true,
        headers: { 'X-SF-Game': 'andromeda', 'auto-submitted': 'no' }, // ours must win
      });
      expect(res.messageId).toBe('<reply-1@sf.example>');

      const [mail] = await smtp.waitFor(1);
      expect(mail!.envelope).toEqual({ from: 'moderator@sf.example', to: ['giulia@example.it'] });
      expect(mail!.subject).toBe('Re: [SF andromeda] ordini — turno 3');
      expect(mail!.text?.trim()).toBe('Ordini ricevuti: B2-C3, B2=F6.\nScadenza: venerdì 18:00.');
      expect(mail!.messageId).toBe('<reply-1@sf.example>');
      expect(mail!.inReplyTo).toBe('<order-1@example.it>');
      expect(mail!.references).toEqual(['<order-0@example.it>', '<order-1@example.it>']);
      expect(mail!.header('X-SF-Origin')).toBe(SF_ORIGIN_VALUE);
      expect(mail!.header('Auto-Submitted')).toBe(AUTO_REPLIED);
      expect(mail!.raw.toString().match(/^auto-submitted:/gim)).toHaveLength(1);
      expect(mail!.header('X-SF-Game')).toBe('andromeda');
    } finally {
      await transport.close();
    }
  });

  it('DKIM-signs with the configured key, sends attachments and an inline image, over a pool of connections', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dkim = {
      domainName: 'sf.example',
      keySelector: 'sf2026',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    const transport = createSmtpTransport(smtp.url, pino({ level: 'silent' }), { dkim });
    try {
      const png = Buffer.from('89504e470d0a1a0a', 'hex');
      await Promise.all(
        [1, 2, 3, 4].map((i) =>
          transport.send({
            from: 'moderator@sf.example',
            to: `p${i}@example.org`,
            subject: `Edict ${i}`,
            text: 'The edict.',
            html: '<p><img src="cid:map@sf" alt="map"></p>',
            messageId: `edict-${i}@sf.example`,
            attachments: [
              { filename: 'edict.json', contentType: 'application/json', content: Buffer.from('{"turn":3}') },
              { filename: 'map.png', contentType: 'image/png', content: png, cid: 'map@sf' },
            ],
          }),
        ),
      );
      const mails = await smtp.waitFor(4);
      for (const mail of mails) {
        const signature = /^DKIM-Signature:.*(?:\r\n[ \t].*)*/im.exec(mail.raw.toString('latin1'))?.[0] ?? '';
        expect(signature).toMatch(/d=sf\.example;/);
        expect(signature).toMatch(/s=sf2026;/);
        const json = mail.parsed.attachments.find((a) => a.filename === 'edict.json');
        expect(json?.content.toString()).toBe('{"turn":3}');
        const map = mail.parsed.attachments.find((a) => a.contentType === 'image/png');
        expect(map?.cid).toBe('map@sf');
        expect(map?.content.equals(png)).toBe(true);
      }
      // The signature verifies against the public key (the body hash and the signed headers).
      const verified = verifyDkim(mails[0]!.raw, publicKey.export({ type: 'spki', format: 'pem' }).toString());
      expect(verified).toBe(true);
    } finally {
      await transport.close();
    }
  });

  it('the service signs with the DKIM key named by its configuration, and refuses a missing key in one line', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dir = mkdtempSync(join(tmpdir(), 'sf-dkim-'));
    try {
      const file = join(dir, 'dkim.pem');
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
      const config = loadConfig({ SMTP_URL: smtp.url, MAIL_DOMAIN: 'sf.example', DKIM_SELECTOR: 'sel1', DKIM_PRIVATE_KEY_FILE: file });
      const transport = createTransport(config, pino({ level: 'silent' }));
      await transport.send({
        from: 'orders@sf.example',
        to: 'p@example.org',
        subject: 's',
        text: 't',
        messageId: 'dkim-config@sf.example',
      });
      await transport.close?.();
      const [mail] = await smtp.waitFor(1);
      const signature = /^DKIM-Signature:.*(?:\r\n[ \t].*)*/im.exec(mail!.raw.toString('latin1'))?.[0] ?? '';
      expect(signature).toMatch(/d=sf\.example;/);
      expect(signature).toMatch(/s=sel1;/);
      const missing = loadConfig({ SMTP_URL: smtp.url, DKIM_SELECTOR: 'sel1', DKIM_PRIVATE_KEY_FILE: join(dir, 'none.pem') });
      expect(() => createTransport(missing, pino({ level: 'silent' }))).toThrow(/DKIM_PRIVATE_KEY_FILE cannot be read \(ENOENT\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects when the relay cannot be reached', async () => {
    const transport = createSmtpTransport('smtp://127.0.0.1:1', pino({ level: 'silent' }));
    await expect(
      transport.send({ from: 'a@sf.example', to: 'b@example.org', subject: 's', text: 't', messageId: 'x@sf' }),
    ).rejects.toThrow();
    await transport.close();
  });
});

/**
 * A minimal DKIM check (relaxed/relaxed, rsa-sha256, as nodemailer signs): enough to prove the key
 * and the canonicalisation are right, without DNS.
 */
function verifyDkim(raw: Buffer, publicKeyPem: string): boolean {
  const text = raw.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  const headerBlock = text.slice(0, split);
  const body = text.slice(split + 4);
  const headers = headerBlock.split(/\r\n(?![ \t])/);
  const sigHeader = headers.find((h) => /^dkim-signature:/i.test(h))!;
  const tags = Object.fromEntries(
    sigHeader
      .slice(sigHeader.indexOf(':') + 1)
      .replace(/\s+/g, '')
      .split(';')
      .filter(Boolean)
      .map((t) => [t.slice(0, t.indexOf('=')), t.slice(t.indexOf('=') + 1)]),
  );
  const relaxHeader = (h: string) => {
    const i = h.indexOf(':');
    return `${h.slice(0, i).toLowerCase().trim()}:${h
      .slice(i + 1)
      .replace(/\r\n/g, '')
      .replace(/[ \t]+/g, ' ')
      .trim()}`;
  };
  const relaxedBody = body
    .split('\r\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''))
    .join('\r\n')
    .replace(/(\r\n)*$/, '\r\n');
  const bh = createHash('sha256').update(relaxedBody, 'latin1').digest('base64');
  if (bh !== tags.bh) return false;
  const signed = (tags.h as string)
    .split(':')
    .map((name) => headers.find((h) => h.toLowerCase().startsWith(`${name.toLowerCase()}:`))!)
    .map(relaxHeader);
  const sigNoB = relaxHeader(sigHeader)
    .replace(/b=[^;]*$/, 'b=')
    .replace(/(;\s*b=)[^;]*/, '$1');
  const data = [...signed, sigNoB].join('\r\n');
  return createVerify('RSA-SHA256')
    .update(data, 'latin1')
    .verify(createPublicKey(publicKeyPem), tags.b as string, 'base64');
}
