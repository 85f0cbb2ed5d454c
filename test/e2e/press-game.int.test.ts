// A short game of press through real mail (docs/press.md §1, §4, §5): four players, two writing
// in Italian and two in English, a referee, the real service on PostgreSQL reading a real
// Dovecot mailbox, everything it sends captured by an SMTP server, and a clock the test moves
// from deadline to deadline. The game lasts three turns (R-WIN-2) with press settings named at
// creation (signed and anonymous, private messages allowed, nothing revealed at the end).
//
// Turn 1 (the election): the Hutt send a signed message to the Sith and the Knights in the same
// mail as their vote; the Aristocrats an anonymous broadcast with theirs; the Sith reply to the
// Hutt's message by mail (relayed to the Hutt and the Knights), and the same reply address used
// from a stranger's address is refused, the Sith warned (D-PRESS-9); the Knights write to the
// referee; the Sith report the anonymous broadcast. Turn 2: the Knights dispute the first edict
// and the referee rejects the dispute with a reason; the Sith mute the Hutt (SILENZIA Hutt) and
// the Hutt's next message to both reaches the Knights alone; the Knights, on London's clocks,
// choose the digest (DIGEST): three messages wait for them (signed, anonymous, a broadcast), none
// at 07:00 in Rome, all in one digest at 07:00 in London, and their answer through the digest's
// reply address is relayed to the Hutt (D-PRESS-11, D-PRESS-26). Turn 3, the last: the Knights
// dispute the second edict, the referee settles it by an amendment (everyone gets the amended
// edict, the disputer is told), and the turn closes with nobody at R-WIN-1's planets: the Hutt,
// with the most planets, win (R-WIN-2) and the game is over.
//
// Then the anonymity test (D-PRESS-10): every mail a player other than the anonymous writer
// received (the digest carrying their anonymous message among them), and every public page and
// API answer, searched for that writer's faction names, address, private code and reply tokens:
// none found. The same search finds the Hutt in their signed relay, so it is able to fail. Every
// mail sent is compared with test/e2e/golden/press-game.txt (Message-IDs and reply tokens
// normalised); UPDATE_GOLDEN=1 rewrites it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { runOperation, type OperationContext } from '../../src/control/operations.ts';
import { findGame } from '../../src/db/games.ts';
import { findTokens } from '../../src/db/press.ts';
import { findTurn } from '../../src/db/turns.ts';
import { amendTurn, listOpenDisputes, pressSettingsOf } from '../../src/games/index.ts';
import { createLogger } from '../../src/logger.ts';
import type { CapturedMail } from '../harness/smtp.ts';
import { Cleanups } from '../support/cleanups.ts';
import { DOMAIN, HOUR, MailGame, MINUTE } from './mail-game.ts';

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden', 'press-game.txt');
// Thursday 20 March 2025 in Rome. Everything is in the past: Dovecot keeps past INTERNALDATEs only.
const CREATED = new Date('2025-03-20T10:00:00Z');
const REFEREE = 'referee@example.org';
const STRANGER = 'mallory@example.net';
/** The anonymous writer: their faction, their address and their private code must reach nobody else. */
const ANONYMOUS = { faction: 'aristocrats', email: 'arist@example.org', secret: 'arst-0002' };
const ANONYMOUS_TEXT = 'Do not trust the Hutt: they will break every truce before turn 3.';
/** The Hutt's answer to it, in its conversation: its mails never name the hidden writer either. */
const ANSWER_TEXT = 'Chi scrive senza firmarsi non merita risposta.';
/** The Hutt's message the Sith muted: it reaches the Knights only. */
const MUTED_TEXT = 'Sith e Cavalieri: la flotta Hutt resta a casa questo turno.';
/** What waits for the Knights' digest, by writer. */
const DIGEST_TEXTS = {
  hutt: 'Cavalieri, una tregua fino al turno 3?',
  anonymous: 'The Hutt promised the Sith your home planet.',
  sith: 'I Sith non dichiarano ostilità a nessuno questo turno.',
};
const DIGEST_REPLY_TEXT = 'A truce until turn 3, agreed.';

const cleanups = new Cleanups();
let g: MailGame;

beforeAll(async () => {
  g = await MailGame.open(
    {
      name: 'press-game',
      start: CREATED,
      secrets: ['hutt-0001', ANONYMOUS.secret, 'sith-0003', 'kngt-0004'],
      listen: true,
      env: { PUBLIC_URL: 'https://sf.example' },
      describe: { replyTo: true },
    },
    cleanups,
  );
  await g.createGame(
    {
      name: 'Press Game',
      players: [
        { email: 'hutt@example.org', lang: 'it', name: 'Jabba' },
        { email: ANONYMOUS.email, lang: 'en', name: 'Amidala' },
        { email: 'sith@example.org', lang: 'it' },
        // On London's clocks: their digest comes at 07:00 there, 08:00 in Rome.
        { email: 'knights@example.org', lang: 'en', timeZone: 'Europe/London' },
      ],
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
      declarationLeadMinutes: 120,
      reminderMinutes: [],
      lastTurn: 3,
      // Named, not left to the defaults: signed and anonymous, private messages, nothing revealed at the end.
      press: { mode: 'both', private: true, reveal: 'never' },
    },
    true,
  );
  // The referee, as `sf referee add` and `sf referee assign` make one.
  await runOperation(operationCtx(), 'referee.add', { email: REFEREE });
  await runOperation(operationCtx(), 'referee.assign', { gameId: g.gameId, email: REFEREE });
  await g.startService();
}, 120_000);

afterAll(async () => {
  await cleanups.run();
}, 60_000);

/** What `sf referee …` runs with, in this process (as the CLI does when it holds the database). */
const operationCtx = (): OperationContext => ({
  db: g.db.db,
  config: g.config,
  log: createLogger('silent'),
  actor: 'cli:referee',
  receive: () => Promise.reject(new Error('no mail expected')),
});

const to = (mails: CapturedMail[], address: string) => mails.find((m) => m.envelope.to.includes(address))!;
const replyTo = (m: CapturedMail) => m.header('reply-to')!.replace(/^.*<|>.*$/g, '');
/** A player's answer to a relay, as a mail client writes it: to its Reply-To, in its thread, the relay quoted below. */
const replyHeaders = (m: CapturedMail) => [`In-Reply-To: ${m.messageId}`, `References: ${m.messageId}`];
const quoted = (m: CapturedMail) =>
  (m.text ?? '')
    .split(/\r?\n/)
    .map((l) => `> ${l}`)
    .join('\n');
const later = (minutes: number) => g.at(new Date(g.clock + minutes * MINUTE));

describe('a game of press through real mail', () => {
  it('relays signed, anonymous, group and broadcast messages and replies, refuses a forged reply, keeps a mute and a digest, files and settles disputes, and ends at its last turn', async () => {
    const settings = pressSettingsOf((await findGame(g.db.db, g.gameId))!.pressSettings);
    expect(settings).toMatchObject({ mode: 'both', private: true, reveal: 'never' });
    await g.sent('welcome', 4);

    // --- Turn 1: the election, and the first messages ------------------------------------------
    const t1 = await g.deadlineOf(1);
    g.at(new Date(t1.deadline.getTime() - 2 * 24 * HOUR));

    // A signed message to two factions, in the same mail as the vote (D-PRESS-2).
    await g.write('hutt', 'V: Hutt\n\nSTAMPA A Sith e Cavalieri\nVotate Hutt e vi lascio in pace fino alla fine.\nFINE');
    // One acknowledgement for the mail: the sheet's part, then its message (docs/press.md §4).
    const signed = await g.sent('turn 1: a signed message to the Sith and the Knights, with a vote', 3);
    const toSith = to(signed, 'sith@example.org');
    expect(toSith.subject).toBe('[SF press-game] Hutt → te e i Cavalieri');
    expect(to(signed, 'knights@example.org').text).toContain('Votate Hutt e vi lascio in pace fino alla fine.');

    // An anonymous broadcast with a vote: its relays leave a random 2–20 minutes later (D-PRESS-10).
    later(7);
    await g.write(ANONYMOUS.faction, `V: Hutt\n\nBROADCAST ANONYMOUS\n${ANONYMOUS_TEXT}\nENDPRESS`);
    later(21);
    const anonymous = await g.sent('turn 1: an anonymous broadcast, with a vote', 4);
    const anonymousToSith = to(anonymous, 'sith@example.org');
    expect(anonymousToSith.text).toContain(ANONYMOUS_TEXT);

    // The Hutt answer the anonymous broadcast by mail: everyone reads it, its hidden writer too,
    // named to nobody (D-PRESS-10).
    later(10);
    const anonymousToHutt = to(anonymous, 'hutt@example.org');
    await g.write('hutt', `${ANSWER_TEXT}\n\n${quoted(anonymousToHutt)}`, {
      to: replyTo(anonymousToHutt),
      subject: `Re: ${anonymousToHutt.subject}`,
      headers: replyHeaders(anonymousToHutt),
    });
    const answer = await g.sent('turn 1: an answer to the anonymous broadcast, its hidden writer included', 4);
    expect(to(answer, ANONYMOUS.email).text).toContain(ANSWER_TEXT);
    // Its hidden writer is told it answers their message, and that replying keeps them anonymous.
    expect(to(answer, ANONYMOUS.email).text).toContain(
      'This answers your anonymous message: if you reply to this mail, you stay anonymous.',
    );

    // The Sith reply to the Hutt's message by mail: it goes to the Hutt and the Knights.
    later(30);
    await g.write('sith', `Ci sto: voto Hutt.\n\n${quoted(toSith)}`, {
      to: replyTo(toSith),
      subject: `Re: ${toSith.subject}`,
      headers: replyHeaders(toSith),
    });
    const reply = await g.sent('turn 1: a reply by mail, relayed to the conversation', 3);
    expect(to(reply, 'hutt@example.org').text).toContain('Ci sto: voto Hutt.');
    expect(to(reply, 'hutt@example.org').text).not.toContain('Votate Hutt'); // the quoted relay is not relayed again

    // The same reply address from another address: nothing relayed, the Sith warned (D-PRESS-9).
    later(30);
    await g.write('sith', 'Votate Sith!', {
      from: STRANGER,
      to: replyTo(toSith),
      subject: `Re: ${toSith.subject}`,
      headers: replyHeaders(toSith),
    });
    const forged = await g.sent('turn 1: a forged reply refused, its owner warned', 1);
    expect(forged[0]!.envelope.to).toEqual(['sith@example.org']);
    expect(forged[0]!.text).toContain(STRANGER);

    // The Knights ask the referee (press to the referees is always open, and signed).
    later(30);
    await g.write('knights', 'PRESS TO REFEREE\nMay the Chancellor declare hostility to everyone at once?\nENDPRESS');
    const asked = await g.sent('turn 1: a message to the referee', 2);
    expect(to(asked, REFEREE).text).toContain('May the Chancellor declare hostility to everyone at once?');

    // The Sith report the anonymous broadcast: its writer goes to the referee, nobody else.
    later(30);
    await g.write('sith', `SEGNALA\nÈ una calunnia.\n\n${quoted(anonymousToSith)}`, {
      to: replyTo(anonymousToSith),
      subject: `Re: ${anonymousToSith.subject}`,
      headers: replyHeaders(anonymousToSith),
    });
    const report = await g.sent('turn 1: a report to the referee', 2);
    expect(to(report, REFEREE).text).toMatch(/Aristocrat/);

    later(30);
    await g.write('sith', 'V: Hutt');
    await g.sent('turn 1: a vote', 1);
    later(5);
    await g.write('knights', 'V: Knights');
    await g.sent('turn 1: a vote', 1);
    g.at(new Date(t1.deadline.getTime() + MINUTE));
    await g.sent('turn 1: edict', 4);
    expect((await g.deadlineOf(2)).state.chancellor).toBe('hutt');

    // --- Turn 2: a dispute rejected -------------------------------------------------------------
    later(2 * 60);
    await g.write('knights', 'DISPUTE: the Sith voted after the Knights and their vote should not count.\nENDPRESS');
    await g.sent('turn 2: a dispute of edict 1, acknowledged and sent to the referee', 2);
    const [first] = await listOpenDisputes(g.db.db, g.gameId);
    expect(first).toMatchObject({ turn: 1, faction: 'knights', status: 'open' });
    // The referee rejects it, as `sf referee dispute reject` does.
    await runOperation(operationCtx(), 'referee.dispute.reject', {
      gameId: g.gameId,
      disputeId: first!.id,
      reason: 'Votes count whenever they arrive before the deadline (R-ELEC-3).',
    });
    const rejected = await g.sent('turn 2: the dispute rejected, the disputer told', 1);
    expect(rejected[0]!.envelope.to).toEqual(['knights@example.org']);

    // The Sith mute the Hutt (docs/press.md §1): the answer lists their mutes.
    later(30);
    await g.write('sith', 'SILENZIA Hutt');
    const muted = await g.sent('turn 2: the Sith mute the Hutt, answered with their mutes', 1);
    expect(muted[0]!.envelope.to).toEqual(['sith@example.org']);
    expect(muted[0]!.text).toMatch(/silenziato: gli Hutt\./);

    // The Hutt's next message to the Sith and the Knights reaches the Knights alone; its writer
    // is not told (D-PRESS-11): the acknowledgement and a relay, nothing to the Sith.
    later(30);
    await g.write('hutt', `STAMPA A Sith e Cavalieri\n${MUTED_TEXT}\nFINE`);
    const mutedRelay = await g.sent('turn 2: a signed message to a faction that muted its writer', 2);
    expect(mutedRelay.filter((m) => m.envelope.to.includes('sith@example.org'))).toEqual([]);
    expect(to(mutedRelay, 'knights@example.org').text).toContain(MUTED_TEXT);
    // The acknowledgement quotes the text (D-PRESS-30) and names both readers: the mute stays secret.
    expect(to(mutedRelay, 'hutt@example.org').text).toContain('inviato ai Sith e ai Cavalieri');
    expect(to(mutedRelay, 'hutt@example.org').text).not.toMatch(/silenziat|mute/i);

    // The Knights (on London's clocks) choose the digest: answered with their choices.
    later(30);
    await g.write('knights', 'DIGEST');
    const digestChosen = await g.sent('turn 2: the Knights choose the digest, answered', 1);
    expect(digestChosen[0]!.envelope.to).toEqual(['knights@example.org']);

    // Three messages for the Knights: a private one of the Hutt's, an anonymous one of the
    // Aristocrats' (D-PRESS-10) and a broadcast of the Sith's. None is mailed to the Knights now.
    later(30);
    await g.write('hutt', `STAMPA A Cavalieri\n${DIGEST_TEXTS.hutt}\nFINE`);
    const forDigest = await g.sent('turn 2: a private message to a digest reader: the acknowledgement only', 1);
    later(30);
    await g.write(ANONYMOUS.faction, `PRESS TO Knights ANONYMOUS\n${DIGEST_TEXTS.anonymous}\nENDPRESS`);
    forDigest.push(...(await g.sent('turn 2: an anonymous message to a digest reader: the acknowledgement only', 1)));
    later(30);
    await g.write('sith', `STAMPA A TUTTI\n${DIGEST_TEXTS.sith}\nFINE`);
    const broadcast = await g.sent('turn 2: a broadcast: relayed at once to all but the digest reader', 3);
    forDigest.push(...broadcast);
    expect(forDigest.filter((m) => m.envelope.to.includes('knights@example.org'))).toEqual([]);
    expect(to(broadcast, 'hutt@example.org').text).toContain(DIGEST_TEXTS.sith); // the Sith muted the Hutt, not the other way
    expect(to(broadcast, ANONYMOUS.email).text).toContain(DIGEST_TEXTS.sith);

    // 07:00 in Rome is 06:00 in London: no digest yet. At 07:00 in London the turn job sends it:
    // one mail with the three messages, each with its reply address (D-PRESS-26).
    const day = new Date(Date.UTC(2025, 2, 24));
    g.at(new Date(day.getTime() + 6 * HOUR + 30 * MINUTE)); // 07:30 in Rome, 06:30 in London
    await g.sent('turn 2: 07:30 in Rome, 06:30 in London: no digest', 0);
    g.at(new Date(day.getTime() + 7 * HOUR + MINUTE)); // 07:01 in London
    const [digest] = await g.sent('turn 2: the daily digest at 07:00 in London', 1);
    expect(digest!.envelope.to).toEqual(['knights@example.org']);
    for (const text of Object.values(DIGEST_TEXTS)) expect(digest!.text).toContain(text);
    expect(digest!.text).not.toContain(MUTED_TEXT); // relayed before the digest was chosen
    expect(digest!.text).toMatch(/From: anonymous/);
    const replyAddresses = [...(digest!.text ?? '').matchAll(/orders\+p-[a-z2-7]{26}@[a-z.]+/g)].map((r) => r[0]);
    expect(new Set(replyAddresses).size).toBe(3);
    // A digest carries what waited until its slot: the next pass of the turn job sends nothing more.
    later(5);
    await g.sent('turn 2: the digest sent once', 0);

    // The Knights answer the Hutt through the reply address the digest gives for their message.
    later(25);
    // Each entry's reply address follows its text.
    const fromDigest = digest!.text ?? '';
    const huttAddress = fromDigest.slice(fromDigest.indexOf(DIGEST_TEXTS.hutt)).match(/orders\+p-[a-z2-7]{26}@[a-z.]+/)?.[0];
    expect(huttAddress).toBeDefined();
    await g.write('knights', DIGEST_REPLY_TEXT, { to: huttAddress!, subject: `Re: ${digest!.subject}`, headers: replyHeaders(digest!) });
    const digestReply = await g.sent('turn 2: a reply through the digest, relayed to the Hutt', 2);
    expect(to(digestReply, 'hutt@example.org').text).toContain(DIGEST_REPLY_TEXT);
    expect(to(digestReply, 'knights@example.org').text).toContain('Your reply was sent to Hutt, signed');

    const t2 = await g.deadlineOf(2);
    g.at(new Date(t2.declarationDeadline.getTime() - 25 * HOUR));
    await g.write('hutt', 'H: nessuno');
    await g.sent('turn 2: the declaration, acknowledged and broadcast to everyone', 5);
    later(60);
    await g.write('knights', 'H: Hutt');
    await g.sent('turn 2: a sheet', 1);
    g.at(new Date(t2.deadline.getTime() + MINUTE));
    await g.sent('turn 2: edict', 4);

    // --- Turn 3, the last: a dispute settled by an amendment, then the end --------------------
    later(3 * 60);
    await g.write('knights', 'CONTESTA: ho corretto il foglio prima della scadenza: H: nessuno, non H: Hutt.\nFINE');
    await g.sent('turn 3: a dispute of edict 2, acknowledged and sent to the referee', 2);
    const [second] = await listOpenDisputes(g.db.db, g.gameId);
    expect(second).toMatchObject({ turn: 2, faction: 'knights', status: 'open' });
    // The referee reads the corrected sheet and amends the turn: the dispute is settled by it.
    await amendTurn(
      g.db.db,
      {
        gameId: g.gameId,
        turn: 2,
        reason: 'The Knights corrected their sheet before the deadline: they were hostile to nobody.',
        correctedSheets: { knights: 'H: nessuno' },
      },
      { ...g.ctx(true), actor: 'cli:referee' },
    );
    const amended = await g.sent('turn 3: the amended edict to everyone, the disputer told', 5);
    expect(amended.filter((m) => m.envelope.to.includes('knights@example.org'))).toHaveLength(2);
    const amendedEdicts = amended.filter((m) => /\((amended, version|emendato, versione) 2\)$/.test(m.subject ?? ''));
    expect(amendedEdicts.map((m) => m.envelope.to[0]).sort()).toEqual(g.players.map((p) => p.email).sort());
    expect(await listOpenDisputes(g.db.db, g.gameId)).toEqual([]);

    const t3 = await g.deadlineOf(3);
    g.at(new Date(t3.declarationDeadline.getTime() - 25 * HOUR));
    await g.write('hutt', 'H: nessuno');
    await g.sent('turn 3: the declaration, acknowledged and broadcast to everyone', 5);
    g.at(new Date(t3.deadline.getTime() + MINUTE));
    const final = await g.sent('turn 3: the final edict', 4);
    // R-WIN-2: nobody reached the victory planets by the last turn: the most planets win.
    expect(final.every((m) => /game is over|partita è finita/.test(m.text ?? ''))).toBe(true);
    expect(final.every((m) => /(VICTORY|VITTORIA): Hutt \(R-WIN-2/.test(m.text ?? ''))).toBe(true);
    expect((await findGame(g.db.db, g.gameId))!.status).toBe('finished');
    expect(await findTurn(g.db.db, g.gameId, 4)).toBeNull();

    // --- Anonymity (D-PRESS-10) ---------------------------------------------------------------
    const pages = await publicPages();
    const signedRelay = to(signed, 'sith@example.org');
    await anonymityHolds(g.smtp.messages, pages, signedRelay, digest!);

    g.matchGolden(GOLDEN);
  }, 600_000);
});

/** Every page and API answer of the game anyone can read, by path. */
async function publicPages(): Promise<Map<string, string>> {
  const id = encodeURIComponent(g.gameId);
  const paths = [
    '/',
    `/games/${id}`,
    `/games/${id}/edicts.atom`,
    `/games/${id}/deadlines.ics`,
    '/api/games',
    `/api/games/${id}`,
    `/api/games/${id}/edicts`,
    ...[1, 2, 3].flatMap((n) => [`/games/${id}/turns/${n}`, `/api/games/${id}/turns/${n}`, `/games/${id}/turns/${n}/edict.json`]),
    `/games/${id}/turns/2/v/1`,
    `/games/${id}/turns/2/v/2`,
    `/api/games/${id}/turns/2/v/2`,
  ];
  const pages = new Map<string, string>();
  for (const p of paths) {
    const res = await fetch(new URL(p, g.service.url));
    expect(res.status, p).toBe(200);
    pages.set(p, await res.text());
  }
  return pages;
}

/** Everything of a mail its reader can see: every header (Message-ID, In-Reply-To, References, Reply-To, From, Subject…), text, HTML, attachments. */
function seenIn(m: CapturedMail): string {
  const raw = m.raw.toString('utf8');
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/));
  return [
    head,
    m.subject ?? '',
    m.header('from') ?? '',
    m.header('reply-to') ?? '',
    m.text ?? '',
    m.parsed.html || '',
    ...m.parsed.attachments.map((a) => (a.contentType.startsWith('image/') ? '' : a.content.toString('utf8'))),
  ].join('\n');
}

/**
 * What names a writer: their faction in any language and number (`aristocrat` matches every name
 * of the Aristocrats, it and en, singular and plural, and the faction id), their address, their
 * private code and address, and every reply token handed to them.
 */
function whatNames(faction: string, email: string, secret: string, tokens: string[]) {
  const f = classicMap().map.factions.find((x) => x.id === faction)!;
  const names = [...new Set([f.id, ...f.names.it, ...f.names.en])];
  return {
    names,
    faction: (s: string) => names.filter((n) => new RegExp(`\\b${n}\\b`, 'i').test(s)),
    identity: (s: string) =>
      [email, secret, `orders+${secret}@${DOMAIN}`, ...tokens].filter((x) => s.toLowerCase().includes(x.toLowerCase())),
  };
}

async function anonymityHolds(
  mails: CapturedMail[],
  pages: Map<string, string>,
  signedRelay: CapturedMail,
  digest: CapturedMail,
): Promise<void> {
  const writer = g.player(ANONYMOUS.faction);
  expect([writer.email, writer.secret]).toEqual([ANONYMOUS.email, ANONYMOUS.secret]);
  // The writer's reply tokens: the Reply-To of what they were sent.
  const tokens = mails
    .filter((m) => m.envelope.to.includes(writer.email))
    .map((m) => /\+(p-[a-z2-7]{26})@/.exec(m.header('reply-to') ?? '')?.[1])
    .filter((t): t is string => !!t);
  expect(tokens.length).toBeGreaterThan(0);
  for (const t of (await findTokens(g.db.db, tokens)).values()) expect([t.ownerKind, t.ownerId]).toEqual(['player', writer.id]);
  const hidden = whatNames(writer.faction, writer.email, writer.secret, tokens);
  expect(hidden.names.length).toBeGreaterThanOrEqual(5);
  const everyFaction = g.players.filter((p) => p.faction !== writer.faction).map((p) => whatNames(p.faction, '', '-', []));

  const players = new Set(g.players.map((p) => p.email));
  const toOthers = mails.filter((m) => m.envelope.to.some((a) => players.has(a)) && !m.envelope.to.includes(writer.email));
  // The anonymous conversations' mails: the broadcast and the answer in its thread, and the
  // Knights' digest carrying the anonymous message to them.
  const carriers = toOthers.filter((m) => [ANONYMOUS_TEXT, ANSWER_TEXT, DIGEST_TEXTS.anonymous].some((t) => (m.text ?? '').includes(t)));
  expect(carriers.length, 'the anonymous broadcast reached the other three, the answer the other two').toBeGreaterThanOrEqual(3 + 2 + 1);
  expect(carriers, 'the digest is searched as a carrier of an anonymous message').toContain(digest);
  for (const m of toOthers) {
    const seen = seenIn(m);
    const what = `the mail to ${m.envelope.to.join(',')}: ${m.subject}`;
    expect(hidden.identity(seen), `${what} names the anonymous writer's address or code`).toEqual([]);
    if (carriers.includes(m)) {
      // The anonymous message's own mails never name its writer's faction, anywhere.
      expect(hidden.faction(seen), `${what} names the anonymous writer`).toEqual([]);
    } else {
      // Edicts, welcomes and the like name every faction by design; any other mail naming the
      // writer would single them out.
      const namesAll = everyFaction.every((f) => f.faction(seen).length > 0);
      if (!namesAll) expect(hidden.faction(seen), `${what} names the anonymous writer`).toEqual([]);
    }
  }
  for (const [p, body] of pages) {
    expect(hidden.identity(body), `${p} names the anonymous writer's address or code`).toEqual([]);
    expect(body, `${p} shows the anonymous message`).not.toContain(ANONYMOUS_TEXT.slice(0, 30));
  }
  // The same search is able to fail: it finds the signed writer in their relay.
  const signer = whatNames('hutt', 'hutt@example.org', 'hutt-0001', []);
  expect(signer.faction(seenIn(signedRelay))).toContain('Hutt');
  for (const named of ['Da: Aristocratico', 'From: the Aristocrats', 'aristocrats →']) expect(hidden.faction(named), named).not.toEqual([]);
  expect(hidden.identity(`Reply-To: orders+${tokens[0]}@${DOMAIN}`)).toEqual([tokens[0]]);
}
