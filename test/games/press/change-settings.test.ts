// A referee changes a game's press settings (docs/press.md §3) on PGlite, through the real intake
// afterwards: one transaction stores them, logs old and new, and mails every seated player in their
// language which settings changed, old → new; the next press mail obeys them. A change that
// changes nothing is nothing (D-PRESS-20); a finished game keeps its settings.
import { beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '../../../src/db/audit.ts';
import { findGame, updateGame } from '../../../src/db/games.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { pressMessages } from '../../../src/db/schema.ts';
import { changePressSettings, createGame, GameError, pressSettingsOf, resendWelcome, type GamesContext } from '../../../src/games/index.ts';
import { addReferee, assignReferee } from '../../../src/referee/accounts.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from '../../mail/intake/world.ts';

// Players: 0 Hutt (it), 1 Aristocrats (en), 2 Sith (it), 3 Knights (en).
let world: World;
let ctx: GamesContext;
beforeEach(async () => {
  world = await makeWorld();
  ctx = { actor: 'referee:ref@example.org', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => world.clock.now };
});

const mails = async (kind: string) => (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === kind);

describe('a referee changes the press settings', () => {
  it('stores them, logs old and new, and mails every player what changed in their language; the next press mail obeys', async () => {
    const db = world.database.db;
    const r = await changePressSettings(db, 'andromeda', { mode: 'off', perHour: 5, reveal: 'never' }, 'a quiet turn', ctx);
    expect(r.changed).toEqual(['mode', 'perHour']); // reveal was never already
    expect(r.told).toBe(4);
    expect(pressSettingsOf((await findGame(db, 'andromeda'))!.pressSettings)).toMatchObject({ mode: 'off', perHour: 5, private: true });

    const [entry] = await listAudit(db, { gameId: 'andromeda', action: 'game.press' });
    expect(entry).toMatchObject({
      actor: 'referee:ref@example.org',
      detail: {
        reason: 'a quiet turn',
        changed: ['mode', 'perHour'],
        from: { mode: 'both', perHour: 20 },
        to: { mode: 'off', perHour: 5 },
      },
    });

    const told = await mails('press-settings');
    expect(told.map((m) => m.toAddress).sort()).toEqual([...ADDRESSES].sort());
    const en = told.find((m) => m.toAddress === ADDRESSES[1])!;
    const it_ = told.find((m) => m.toAddress === ADDRESSES[0])!;
    expect(en.subject).toBe('[SF andromeda] New rules for messages between players');
    expect(en.bodyText).toContain(
      'What changes:\n  Messages: signed, or anonymous when the message says ANONYMOUS → no messages between players (only to the referees)\n  Messages an hour: at most 20 → at most 5\n',
    );
    expect(en.bodyText).toContain('The rules now:\n  Messages: no messages between players (only to the referees)\n');
    expect(en.bodyText).toContain('Reason: a quiet turn');
    expect(it_.subject).toBe('[SF andromeda] Nuove regole per i messaggi tra giocatori');
    expect(it_.bodyText).toContain(
      "Messaggi: firmati, oppure anonimi se il messaggio dice ANONIMO → nessun messaggio tra giocatori (solo agli arbitri)\n  Messaggi all'ora: al massimo 20 → al massimo 5\n",
    );
    expect(it_.bodyText).toContain('Motivo: a quiet turn');
    // Replies reach the player's private address, in the game's thread, like every referee action's mail.
    expect(en.replyTo).toBe(privateTo(world, 1));
    expect(en.inReplyTo).toMatch(/^<.*andromeda.*>$/);

    // The next press mail is decided with the stored settings.
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'PRESS TO Hutt\nPeace?\nENDPRESS\n' }));
    expect(await mails('press')).toHaveLength(0);
    const [ack] = await mails('press-ack');
    expect(ack!.bodyText).toContain('Line 1: not sent: this game has no messages between players');
    const [stored] = await db.select().from(pressMessages);
    expect(stored).toMatchObject({ status: 'refused', refusal: { reason: 'press-off' } });
  });

  it('a change that changes nothing stores, logs and mails nothing', async () => {
    const db = world.database.db;
    const r = await changePressSettings(db, 'andromeda', { mode: 'both', private: true }, 'no-op', ctx);
    expect(r.changed).toEqual([]);
    expect(r.told).toBe(0);
    expect(await mails('press-settings')).toHaveLength(0);
    expect(await listAudit(db, { gameId: 'andromeda', action: 'game.press' })).toHaveLength(0);
  });

  it('refuses a value outside its limits naming the setting, and a finished game; nothing changes', async () => {
    const db = world.database.db;
    const refused = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (err) {
        expect(err).toBeInstanceOf(GameError);
        return (err as GameError).message;
      }
      throw new Error('accepted');
    };
    expect(await refused(changePressSettings(db, 'andromeda', { maxChars: 10 }, 'r', ctx))).toBe('maxChars: must be at least 200');
    expect(await refused(changePressSettings(db, 'nowhere', { mode: 'off' }, 'r', ctx))).toBe('there is no game nowhere');
    await updateGame(db, 'andromeda', { status: 'finished' });
    expect(await refused(changePressSettings(db, 'andromeda', { mode: 'off' }, 'r', ctx))).toMatch(
      /is over: its press settings can no longer change/,
    );
    expect(pressSettingsOf((await findGame(db, 'andromeda'))!.pressSettings).mode).toBe('both');
    expect(await mails('press-settings')).toHaveLength(0);
  });
});

describe('the welcome (D-PRESS-17)', () => {
  it('shows the game’s press settings and says no referee is assigned yet, in each player’s language', async () => {
    const welcomes = await mails('welcome');
    const en = welcomes.find((m) => m.toAddress === ADDRESSES[1])!.bodyText;
    const it_ = welcomes.find((m) => m.toAddress === ADDRESSES[0])!.bodyText;
    expect(en).toContain('No referee is assigned to this game yet: disputes wait for the first one.');
    expect(en).toContain('  In this game:\n    Messages: signed, or anonymous when the message says ANONYMOUS\n');
    expect(en).toContain('    At most 20 messages an hour\n');
    expect(it_).toContain('La partita non ha ancora un arbitro');
    expect(it_).toContain('  In questa partita:\n    Messaggi: firmati, oppure anonimi se il messaggio dice ANONIMO\n');
    // The dispute window, from the game's disputeWindowMinutes (1440 by default).
    expect(en).toContain('you dispute the latest edict, within 24 hours of it\n');
    expect(it_).toContain("contesti l'ultimo editto, entro 24 ore dall'editto (anche DISPUTE)\n");
  });

  it('names the game’s referees once one is assigned (a resent welcome)', async () => {
    const db = world.database.db;
    await addReferee(db, 'ref@example.org', 'test');
    await assignReferee(db, 'andromeda', 'ref@example.org', 'test');
    await resendWelcome(db, 'andromeda', world.created.players[1]!.id, 'lost it', ctx);
    const resent = (await mails('welcome')).filter((m) => m.toAddress === ADDRESSES[1]).at(-1)!;
    expect(resent.bodyText).toContain("Disputes are settled by the game's referees.");
  });

  it('names the service’s operator when OPERATOR_ADDRESS is set, and shows the settings the game was created with', async () => {
    const db = world.database.db;
    await createGame(
      db,
      {
        name: 'Gagarin',
        players: ['e@x.org', 'f@x.org', 'g@x.org', 'h@x.org'].map((email) => ({ email, lang: 'en' as const })),
        timeZone: 'Europe/Rome',
        weeklyDeadline: 'sun 20:00',
        press: { mode: 'signed', private: false },
      },
      { ...ctx, operatorAddress: 'op@sf.example' },
    );
    expect(pressSettingsOf((await findGame(db, 'gagarin'))!.pressSettings)).toMatchObject({ mode: 'signed', private: false, perHour: 20 });
    const [welcome] = (await listOutbox(db, { gameId: 'gagarin' })).filter((m) => m.kind === 'welcome');
    expect(welcome!.bodyText).toContain("Disputes are settled by the service's operator: no referee is assigned to this game yet.");
    expect(welcome!.bodyText).toContain('    Messages: signed only: readers see the faction that wrote\n    To whom: everyone only\n');
  });
});
