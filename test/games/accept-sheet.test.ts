// Accepting a player's mail as pure decisions: cases as data, each naming the rule it follows.
// No database, no clock: the facts say when the mail was received.
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import type { GameState } from '../../src/adjudicator/types.ts';
import { decidePlayerMail, type PlayerMailDecision, type PlayerMailFacts, type TurnFacts } from '../../src/games/accept-sheet.ts';
import { initialState } from '../../src/games/initial-state.ts';
import { readPlayerCommand } from '../../src/games/player-commands.ts';

const board = classicMap();
const factions = ['hutt', 'aristocrats', 'sith', 'knights'];
const first: GameState = initialState(board, 'andromeda', factions, { victoryPlanets: 12, nmrHostility: 'keep' });
/** Turn 2: the Hutt are Chancellor, no election. */
const second: GameState = { ...first, turn: 2, chancellor: 'hutt', election: false };

const DEADLINE = new Date('2026-03-08T19:00:00Z'); // Sunday 20:00 in Rome
const DECLARATION = new Date('2026-03-07T19:00:00Z'); // a day before (R-TURN-3)
const min = (n: number) => new Date(DEADLINE.getTime() + n * 60_000);

const turnOf = (state: GameState, over: Partial<TurnFacts> = {}): TurnFacts => ({
  number: state.turn,
  status: 'open',
  deadline: DEADLINE,
  declarationDeadline: DECLARATION,
  state,
  ...over,
});

interface Case {
  name: string;
  text?: string;
  subject?: string;
  at?: Date;
  inboundId?: number;
  faction?: string;
  joinedTurn?: number;
  game?: Partial<PlayerMailFacts['game']>;
  turn?: TurnFacts | null;
  standing?: PlayerMailFacts['standing'];
  /** The decision, compared with toMatchObject. */
  want: Record<string, unknown>;
}

function facts(c: Case): PlayerMailFacts {
  return {
    game: { status: 'active', graceMinutes: 0, timeZone: 'Europe/Rome', ...c.game },
    player: { faction: c.faction ?? 'sith', joinedTurn: c.joinedTurn ?? 1 },
    turn: c.turn === undefined ? turnOf(second) : c.turn,
    standing: c.standing ?? null,
    mail: { inboundId: c.inboundId ?? 10, receivedAt: c.at ?? min(-600), text: c.text ?? 'H: Knights\n', subject: c.subject ?? null },
    board,
  };
}

const cases: Case[] = [
  // The game and the player.
  // D-WIN-4: a finished game takes no sheet, absence or press setting; HELP and STATUS still answer.
  { name: 'a finished game takes no sheet', game: { status: 'finished' }, want: { kind: 'refused', reason: 'game-not-active' } },
  { name: 'a finished game answers HELP', text: 'HELP', game: { status: 'finished' }, want: { kind: 'help' } },
  { name: 'a finished game answers STATO', text: 'STATO', game: { status: 'finished' }, turn: null, want: { kind: 'status' } },
  {
    name: 'a finished game takes no ABSENCE',
    text: 'ABSENCE 2026-03-10 2026-03-12',
    game: { status: 'finished' },
    want: { kind: 'refused', reason: 'game-not-active' },
  },
  { name: 'a paused game still takes sheets: only its deadlines wait', game: { status: 'paused' }, want: { kind: 'accepted' } },
  { name: 'no turn at hand', turn: null, want: { kind: 'refused', reason: 'no-open-turn' } },
  {
    name: 'the turn is no longer open',
    turn: turnOf(second, { status: 'adjudicated' }),
    want: { kind: 'refused', reason: 'no-open-turn' },
  },
  { name: 'R-SETUP-4: a late joiner plays from the turn after it joined', joinedTurn: 3, want: { kind: 'refused', reason: 'not-in-play' } },
  { name: 'R-SETUP-4: … and from that turn on', joinedTurn: 2, want: { kind: 'accepted' } },
  // Commands come before the turn: STATUS works with no open turn.
  { name: 'HELP', text: 'help\n', want: { kind: 'help' } },
  { name: 'STATO with no open turn', text: 'STATO', turn: null, want: { kind: 'status' } },
  { name: 'D-PARSE-13: a Code: line beside a command', text: 'Code: k7Q2\naiuto', want: { kind: 'help' } },
  { name: 'STATUS as the subject of an empty mail', text: '', subject: 'Re: [SF andromeda] status code k7Q2', want: { kind: 'status' } },
  {
    name: 'D-ABS-1: an absence',
    text: 'ABSENCE 2026-03-10 2026-03-12',
    want: { kind: 'absence', absence: { fromDay: '2026-03-10', toDay: '2026-03-12' } },
  },
  {
    name: 'D-ABS-1: dates that end before they start',
    text: 'ASSENZA dal 12/3 al 10/3',
    want: { kind: 'refused', reason: 'absence-dates' },
  },
  {
    // 23:30Z on 31 December is already 1 January in Rome: `31/12` is next December there,
    // after `2/1`, so the dates are refused (read in UTC they would be a valid absence).
    name: "D-ABS-1: the day a mail arrived is the game zone's",
    text: 'ABSENCE 31/12 2/1',
    at: new Date('2025-12-31T23:30:00Z'),
    want: { kind: 'refused', reason: 'absence-dates' },
  },
  // Time: our server's reception, the deadline and the grace period.
  { name: 'R-TURN-4: received at the deadline itself is in time', at: min(0), want: { kind: 'accepted' } },
  {
    name: 'R-TURN-4: a second after the deadline is late',
    at: new Date(DEADLINE.getTime() + 1000),
    want: { kind: 'late', closedAt: DEADLINE, declaration: false },
  },
  { name: 'D-TURN-6: within the grace period is in time', game: { graceMinutes: 30 }, at: min(29), want: { kind: 'accepted' } },
  {
    name: 'D-TURN-6: after the grace period is late, closed at deadline + grace',
    game: { graceMinutes: 30 },
    at: min(31),
    want: { kind: 'late', closedAt: min(30), declaration: false },
  },
  {
    name: 'R-TURN-3: the Chancellor before the declaration deadline',
    faction: 'hutt',
    at: new Date(DECLARATION.getTime() - 1000),
    want: { kind: 'accepted', isChancellor: true, broadcast: true },
  },
  {
    name: 'R-TURN-3: the Chancellor after the declaration deadline is late',
    faction: 'hutt',
    at: min(-60),
    want: { kind: 'late', closedAt: DECLARATION, declaration: true },
  },
  {
    name: 'D-TURN-6: the declaration deadline has no grace',
    faction: 'hutt',
    game: { graceMinutes: 2000 },
    at: min(-60),
    want: { kind: 'late', closedAt: DECLARATION, declaration: true },
  },
  // What the mail says.
  { name: 'D-MAIL-1: chatter alone is not a sheet', text: 'grazie, a domenica!\n', want: { kind: 'no-sheet' } },
  { name: 'D-MAIL-1 R-TURN-5: an empty mail is an empty sheet', text: '', want: { kind: 'accepted' } },
  {
    name: 'a sheet with problems is still a sheet',
    text: 'H: Knights\nB2-C3 please\n',
    want: { kind: 'accepted', review: { status: 'problems' } },
  },
  // Versions (R-TURN-4, D-MAIL-20) and the Chancellor's final sheet (R-TURN-3, D-MAIL-17).
  {
    name: 'R-TURN-4: a newer sheet replaces the standing one',
    standing: { receivedAt: min(-700), inboundId: 3 },
    want: { kind: 'accepted', isChancellor: false, broadcast: false },
  },
  {
    name: 'D-MAIL-20: a sheet received before the standing one does not replace it',
    standing: { receivedAt: min(-500), inboundId: 3 },
    want: { kind: 'superseded', by: min(-500) },
  },
  {
    name: 'D-MAIL-20: within one second, the mail stored first is the earlier',
    standing: { receivedAt: min(-600), inboundId: 11 },
    want: { kind: 'superseded' },
  },
  {
    name: 'D-MAIL-20: within one second, a mail stored later replaces',
    standing: { receivedAt: min(-600), inboundId: 9 },
    want: { kind: 'accepted' },
  },
  {
    name: "D-MAIL-20: a standing sheet with no stored mail (the referee's) is earlier",
    standing: { receivedAt: min(-600), inboundId: null },
    want: { kind: 'accepted' },
  },
  {
    name: "D-MAIL-17: the Chancellor's sheet is final",
    faction: 'hutt',
    at: min(-2000),
    standing: { receivedAt: min(-2100), inboundId: 3 },
    want: { kind: 'refused', reason: 'chancellor-final' },
  },
  {
    name: 'D-MAIL-17: chatter from the Chancellor is not a second sheet',
    faction: 'hutt',
    at: min(-2000),
    text: 'grazie!',
    standing: { receivedAt: min(-2100), inboundId: 3 },
    want: { kind: 'no-sheet' },
  },
  // The turn's kind, for the acknowledgement.
  {
    name: 'R-TURN-1: turn 1 is an election',
    turn: turnOf(first),
    text: 'V: Sith\n',
    want: { kind: 'accepted', electionTurn: true, review: { status: 'valid' } },
  },
  { name: 'R-TURN-1: turn 2 without an election', want: { kind: 'accepted', electionTurn: false } },
];

describe('decidePlayerMail', () => {
  it.each(cases)('$name', (c) => {
    expect(decidePlayerMail(facts(c))).toMatchObject(c.want);
  });

  it("returns the caller's own turn in an accepted decision (the turn the sheet is stored for)", () => {
    const turn = { ...turnOf(second), id: 'mine' };
    const d: PlayerMailDecision<typeof turn> = decidePlayerMail({ ...facts({ name: '', want: {} }), turn });
    expect(d.kind === 'accepted' && d.turn).toBe(turn);
  });
});

describe('an ABSENCE line inside a sheet', () => {
  it('D-ABS-1: is not recorded there, and its problem says exactly how to send it (in both languages)', () => {
    const d = decidePlayerMail(facts({ name: '', text: 'H: Knights\nASSENZA 1/4 10/4\n', want: {} }));
    expect(d.kind).toBe('accepted');
    if (d.kind !== 'accepted') return;
    const [problem, ...others] = d.review.problems;
    expect(others).toEqual([]);
    expect(problem!.line).toBe(2);
    expect(problem!.message.en).toBe(
      'Line 2: an absence is not recorded inside an order sheet. Send it alone, in a mail to your private address with only this line: ASSENZA 1/4 10/4',
    );
    expect(problem!.message.it).toContain("Riga 2: un'assenza non si registra dentro un foglio");
    expect(problem!.message.en).not.toContain('not an order I understand');
  });
});

describe('readPlayerCommand', () => {
  it.each([
    ['HELP', null, { kind: 'help' }],
    ['  Status  ', null, { kind: 'status' }],
    ['status please', null, null],
    ['STATUS\nH: Sith', null, null],
    ['', 'I: aiuto', { kind: 'help' }],
    ['', 'ordini', null],
    ['', null, null],
    ['ABSENCE 1/4 3/4', null, { kind: 'absence', days: { fromDay: '2026-04-01', toDay: '2026-04-03' } }],
    ['ABSENCE tomorrow', null, { kind: 'absence-dates' }],
  ] as const)('%j (subject %j) → %j', (text, subject, want) => {
    expect(readPlayerCommand(text, subject, () => '2026-03-02')).toEqual(want);
  });

  it('works out the day only for a line that may be an absence (it is the costly part)', () => {
    const asked: string[] = [];
    const today = (text: string) => () => (asked.push(text), '2026-03-02');
    for (const text of ['V: Sith\nH: Hutt', 'status', 'grazie!', 'B2-C3']) readPlayerCommand(text, null, today(text));
    readPlayerCommand('ABSENCE 1/4 3/4', null, today('absence'));
    expect(asked).toEqual(['absence']);
  });
});
