// A whole 4-player game through real mail: players' sheets APPENDed to a real Dovecot
// mailbox, the real service (IMAP source, intake, turn job, outbox) on PostgreSQL, everything it
// sends captured by an SMTP server, and a clock the test moves from deadline to deadline.
//
// The game: turn 1 elects the Hutt (a reminder to the player who has not written); turn 2 the
// Chancellor's declaration is broadcast, the Hutt jump out, the Sith sacrifice their home unit
// (R-HYP-3) and rebuild it (R-PROD-1), a Sith absence moves the deadline by a day (D-ABS-1), and
// the Merchants join late (R-SETUP-4); turn 3 a mutual elimination (R-COMB-5) with an advance and
// the Hutt's production; turn 4 the Chancellor misses the declaration (R-TURN-3) and a late one is
// refused, while the Sith reach the Capital; turn 5 their politics call elections (R-POL-3) as the
// Hutt reach 5 planets and win (R-WIN-1). Players write as people do: greetings, thanks, names,
// phone numbers and addresses around their orders, which are read as text (D-PARSE-16), shown to
// their writer alone and never to anyone else (R-EDICT-4). Every mail sent is compared with
// test/e2e/golden/whole-game.txt (dates and Message-IDs normalised): any change in what players
// receive shows up in review.
// UPDATE_GOLDEN=1 rewrites the golden file.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Edict } from '../../src/adjudicator/types.ts';
import { findGame } from '../../src/db/games.ts';
import { edicts } from '../../src/db/schema.ts';
import { listPlayers } from '../../src/db/players.ts';
import { findTurn } from '../../src/db/turns.ts';
import { joinGame } from '../../src/games/index.ts';
import { replayTurns } from '../../src/games/replay.ts';
import { Cleanups } from '../support/cleanups.ts';
import { HOUR, MailGame, MINUTE } from './mail-game.ts';

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden', 'whole-game.txt');
// Thursday 20 March 2025 in Rome. Everything is in the past: Dovecot keeps past INTERNALDATEs only.
const CREATED = new Date('2025-03-20T10:00:00Z');

const cleanups = new Cleanups();
let g: MailGame;

/** What players wrote around their orders, by writer: nobody else may ever see it (R-EDICT-4). */
const PRIVATE: Record<string, string[]> = {
  aristocrats: ['Ciao a tutti', 'Grazie mille', 'Anna Rossi', '333 555 0101'],
  merchants: ['Hi all', 'Cheers', 'Marco Verdi', 'Via Roma 12'],
  sith: ['Ciao Cancelleria', 'Sara Bianchi'],
};

beforeAll(async () => {
  g = await MailGame.open(
    { name: 'whole-game', start: CREATED, secrets: ['hutt-0001', 'arst-0002', 'sith-0003', 'kngt-0004', 'mrch-0005'] },
    cleanups,
  );
  await g.createGame({
    name: 'Whole Game',
    players: [
      { email: 'hutt@example.org', lang: 'en', name: 'Jabba' },
      { email: 'arist@example.org', lang: 'it', name: 'Amidala' },
      { email: 'sith@example.org', lang: 'en' },
      { email: 'knights@example.org', lang: 'it', timeZone: 'America/New_York' },
    ],
    timeZone: 'Europe/Rome',
    weeklyDeadline: 'sun 20:00',
    declarationLeadMinutes: 120,
    reminderMinutes: [1440],
    victoryPlanets: 5,
  });
  await g.startService();
}, 120_000);

afterAll(async () => {
  await cleanups.run();
}, 60_000);

const player = (faction: string) => g.player(faction);
const write = (faction: string, body: string) => g.write(faction, body);
const sent = (step: string, count: number) => g.sent(step, count);
const at = (when: Date) => g.at(when);
const deadlineOf = (turn: number) => g.deadlineOf(turn);

// --- the game ---------------------------------------------------------------------------------

describe('a whole game through real mail', () => {
  it('plays five turns: election, declaration, jumps, production, an absence, a late joiner, combat, a missed declaration, politics, victory', async () => {
    await sent('welcome', 4);

    // Turn 1: the election (R-TURN-1). Three players vote; the Knights get a reminder, then vote.
    const t1 = await deadlineOf(1);
    await at(new Date(t1.deadline.getTime() - 2 * 24 * HOUR));
    await write('hutt', 'V: Hutt');
    await write('aristocrats', 'V: Hutt.');
    await write('sith', 'V: Sith\nB2-C3');
    await sent('turn 1: acknowledgements', 3);
    // The Sith sheet has a problem (a unit order in turn 1), the Knights sent nothing: both are reminded.
    await at(new Date(t1.deadline.getTime() - 1439 * MINUTE));
    await sent('turn 1: reminders', 2);
    await at(new Date(t1.deadline.getTime() - 3 * HOUR));
    await write('knights', 'V: Knights');
    await sent('turn 1: late voter acknowledged', 1);
    await at(new Date(t1.deadline.getTime() + MINUTE));
    await sent('turn 1: edict', 4);
    expect((await findGame(g.db.db, g.gameId))!.currentTurn).toBe(2);
    expect((await deadlineOf(2)).state.chancellor).toBe('hutt');

    // Turn 2: the Chancellor declares first (broadcast, R-TURN-3); a late joiner (R-SETUP-4).
    const t2 = await deadlineOf(2);
    await at(new Date(t2.declarationDeadline.getTime() - 25 * HOUR)); // before the Chancellor's reminder
    await write('hutt', 'H: Aristocrats\nB2=F5\nB1=F3');
    await sent('turn 2: the declaration, acknowledged and broadcast to everyone', 5);
    await write('sith', 'T7=T6');
    await write('aristocrats', 'Ciao a tutti,\nH: Hutt\nGrazie mille!\nAnna Rossi\ncell. +39 333 555 0101');
    await write('knights', '');
    const acks2 = await sent('turn 2: acknowledgements', 3);
    // The greeting and the signature are text, not problems: the sheet is valid, and its writer
    // alone is told that the text was ignored (D-PARSE-16).
    const arist2 = acks2.find((m) => m.envelope.to.includes('arist@example.org'))!;
    expect(arist2.text).toContain('Stato: valido');
    expect(arist2.text).toContain('Anna Rossi');
    // The Sith will be away on the day of the deadline (D-ABS-1): it moves to the next day, everyone told.
    await write('sith', `ABSENCE ${t2.deadline.toISOString().slice(0, 10)} ${t2.deadline.toISOString().slice(0, 10)}`);
    await sent('turn 2: an absence recorded, the deadline moved', 5);
    const t2moved = await deadlineOf(2);
    expect(t2moved.deadline.getTime() - t2.deadline.getTime()).toBe(24 * HOUR);
    const joined = await joinGame(g.db.db, { gameId: g.gameId, email: 'merchants@example.org', lang: 'en' }, g.ctx());
    g.players.push(joined.player);
    await sent('turn 2: the late joiner welcomed', 1);
    await at(new Date(t2moved.deadline.getTime() + MINUTE));
    await sent('turn 2: edict', 5);
    const s3 = (await deadlineOf(3)).state;
    expect(s3.units).toContainEqual({ side: 'sith', at: 'T7' }); // R-PROD-1 after the sacrifice
    expect(s3.units).toContainEqual({ side: 'merchants', at: 'T12' });

    // Turn 3: combat. The Hutt close in on G6; the Aristocrats are hostile too: both fall (R-COMB-5).
    const t3 = await deadlineOf(3);
    await at(new Date(t3.deadline.getTime() - 2 * 24 * HOUR)); // before any reminder is due
    await write('hutt', 'H: Aristocrats\nF5-F6\nF3=G5');
    await sent('turn 3: the declaration, acknowledged and broadcast to everyone', 6);
    await write('aristocrats', 'H: Hutt');
    await write('merchants', 'Hi all!\nH: Sith\nT12-S11\nCheers,\nMarco Verdi\nVia Roma 12, Milano');
    await write('sith', 'T6=P8'); // on the way to the Capital
    await sent('turn 3: acknowledgements', 3);
    await at(new Date(t3.deadline.getTime() + MINUTE));
    await sent('turn 3: edict', 5);
    const s4 = (await deadlineOf(4)).state;
    expect(s4.units).toContainEqual({ side: 'hutt', at: 'G6' }); // R-ADV-1
    expect(s4.units).toContainEqual({ side: 'hutt', at: 'B2' }); // R-PROD-1
    expect(s4.units).toContainEqual({ side: 'aristocrats', at: 'F6' });

    // Turn 4: the Chancellor misses the declaration deadline; a declaration after it is refused.
    // Nobody has written yet and the day-before reminder is due: everyone but the Chancellor (who
    // can no longer declare) is reminded, and everyone is told.
    const t4 = await deadlineOf(4);
    await at(new Date(t4.declarationDeadline.getTime() + MINUTE));
    await sent('turn 4: the missed declaration, and reminders', 9);
    await write('hutt', 'B2-B1');
    await sent('turn 4: a late declaration refused', 1);
    await write('aristocrats', 'F6-F7');
    await write('sith', 'Ciao Cancelleria,\nP8-O9\nSaluti\nSara Bianchi');
    const acks4 = await sent('turn 4: acknowledgements', 2);
    expect(acks4.find((m) => m.envelope.to.includes('sith@example.org'))!.text).toContain('Status: valid');
    await at(new Date(t4.deadline.getTime() + MINUTE));
    await sent('turn 4: edict', 5);

    // Turn 5: B2-B1 gives the Hutt their fifth planet: victory (R-WIN-1), the game is over.
    const t5 = await deadlineOf(5);
    await at(new Date(t5.deadline.getTime() - 2 * 24 * HOUR));
    await write('hutt', 'B2-B1');
    await sent('turn 5: the declaration, acknowledged and broadcast to everyone', 6);
    // The Sith, on the Capital, do politics: elections would be called (R-POL-3).
    await write('sith', 'O9#');
    await sent('turn 5: acknowledgement', 1);
    await at(new Date(t5.deadline.getTime() + MINUTE));
    const final = await sent('turn 5: the final edict', 5);
    expect(final.every((m) => /game is over|partita è finita/.test(m.text ?? ''))).toBe(true);
    // No next turn: no orders address to write to, no election to expect (the JSON keeps the engine's reasons).
    for (const m of final) expect(m.text ?? '').not.toMatch(/orders address|indirizzo per gli ordini|Next turn is|prossimo turno (non )?è/);
    const [lastEdict] = await g.db.db
      .select()
      .from(edicts)
      .where(and(eq(edicts.gameId, g.gameId), eq(edicts.turn, 5)));
    expect((lastEdict!.json as Edict).electionReasons).toContain('politics');
    const game = (await findGame(g.db.db, g.gameId))!;
    expect(game.status).toBe('finished');
    expect(await findTurn(g.db.db, g.gameId, 6)).toBeNull();
    expect((await listPlayers(g.db.db, g.gameId)).length).toBe(5);
    // sf turn replay's check: every turn adjudicates again exactly as stored (R-EDICT-2).
    const replay = await replayTurns(g.db.db, g.gameId);
    expect(replay.turns.map((t) => [t.turn, t.same])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, true],
      [5, true],
    ]);

    // R-EDICT-4: what a player wrote besides their orders reached nobody but its writer: not in any
    // other player's mail, its text, HTML or attached edict.
    for (const m of g.smtp.messages) {
      const to = m.envelope.to.join(' ');
      const seenBy = [
        m.text ?? '',
        m.parsed.html || '',
        ...m.parsed.attachments.map((a) => (a.contentType === 'application/json' ? a.content.toString('utf8') : '')),
      ].join('\n');
      for (const [writer, words] of Object.entries(PRIVATE)) {
        if (to === player(writer).email) continue;
        for (const w of words) expect(seenBy, `${w} (written by ${writer}) in the mail to ${to}: ${m.subject}`).not.toContain(w);
      }
    }
    // D-EDICT-2: every edict mail carries the map of its reader's language: one picture per
    // language, the Italian and the English ones different.
    for (const turn of [1, 2, 3, 4, 5]) {
      const maps = new Map<string, Set<string>>();
      for (const m of g.smtp.messages.filter((x) =>
        new RegExp(`(Imperial Edict|Editto Imperiale), (turn|turno) ${turn}$`).test(x.subject ?? ''),
      )) {
        const png = m.parsed.attachments.find((a) => a.contentType === 'image/png')!;
        const lang = /Editto/.test(m.subject ?? '') ? 'it' : 'en';
        maps.set(lang, (maps.get(lang) ?? new Set()).add(createHash('sha256').update(png.content).digest('hex')));
      }
      expect([...maps.keys()].sort(), `turn ${turn}`).toEqual(['en', 'it']);
      expect(maps.get('it')!.size, `turn ${turn}: one Italian map`).toBe(1);
      expect(maps.get('en')!.size, `turn ${turn}: one English map`).toBe(1);
      expect([...maps.get('it')!][0]).not.toBe([...maps.get('en')!][0]);
    }

    // Every mail any player received, as the golden file has it.
    g.matchGolden(GOLDEN);
  }, 600_000);
});
