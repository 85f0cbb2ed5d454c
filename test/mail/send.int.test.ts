// The SMTP transport against an in-process SMTP server (test/harness/smtp.ts).
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTO_SUBMITTED_VALUE, SF_ORIGIN_VALUE } from '../../src/mail/send/headers.ts';
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
      expect(mail!.header('Auto-Submitted')).toBe(AUTO_SUBMITTED_VALUE);
      expect(mail!.raw.toString().match(/^auto-submitted:/gim)).toHaveLength(1);
      expect(mail!.header('X-SF-Game')).toBe('andromeda');
    } finally {
      await transport.close();
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
