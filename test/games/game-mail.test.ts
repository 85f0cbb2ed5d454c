// The one composer of a game's mail: every notice, edict and welcome is made by it, so what it
// puts in the outbox row is what every one of them carries.
import { describe, expect, it } from 'vitest';
import { gameMail, playerMail } from '../../src/games/game-mail.ts';

const mail = { domain: 'sf.example', ordersLocalPart: 'orders' };

describe('a game mail', () => {
  it('threads under the game, replies to the private address, and has a fresh Message-ID of ours', () => {
    const a = playerMail(
      mail,
      { email: 'p@x.example', secret: 's3cr3t' },
      { kind: 'game-paused', gameId: 'g1', rendered: { subject: 'S', text: 'T' }, dedupeKey: 'k' },
    );
    const b = playerMail(
      mail,
      { email: 'p@x.example', secret: 's3cr3t' },
      { kind: 'game-paused', gameId: 'g1', rendered: { subject: 'S', text: 'T' }, dedupeKey: 'k' },
    );
    expect(a).toMatchObject({
      kind: 'game-paused',
      gameId: 'g1',
      toAddress: 'p@x.example',
      replyTo: 'orders+s3cr3t@sf.example',
      subject: 'S',
      bodyText: 'T',
      inReplyTo: '<game.g1@sf.example>',
      references: '<game.g1@sf.example>',
      dedupeKey: 'k',
    });
    expect(a.messageId).toMatch(/^[0-9a-f-]{36}@sf\.example$/);
    expect(a.messageId).not.toBe(b.messageId);
    expect(a).not.toHaveProperty('bodyHtml');
  });

  it('has no reply-to without a secret, no thread when it starts its own, and carries HTML, files and headers', () => {
    const m = gameMail(mail, {
      kind: 'welcome',
      gameId: 'g1',
      to: 'o@x.example',
      replySecret: null,
      subject: 'S',
      text: 'T',
      dedupeKey: 'k',
      threaded: false,
      html: '<p>T</p>',
      attachments: [{ id: 1 } as never],
      headers: { 'List-Unsubscribe': '<u>' },
    });
    expect(m).toMatchObject({
      replyTo: null,
      inReplyTo: null,
      references: null,
      bodyHtml: '<p>T</p>',
      headers: { 'List-Unsubscribe': '<u>' },
    });
    expect(m.attachments).toHaveLength(1);
  });
});
