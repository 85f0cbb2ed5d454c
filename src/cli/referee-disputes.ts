// `sf referee amend|rollback|pause|resume`: settling a dispute from a terminal, through the same
// operations as the console's forms (src/control/referee-operations.ts → src/games/amend-turn.ts, pause.ts).
import { readFile } from 'node:fs/promises';
import { InputError, str, UsageError, wholeNumber, type Parsed } from './args.ts';
import { MAX_ROLLBACK_HOURS } from '../games/index.ts';
import { out, perform, type Leaf } from './command.ts';

/** The --reason every referee action takes. */
export const reason = { value: '<text>', help: 'why: players and the audit log see it', required: true };

/** Exactly the positional arguments named, or a usage error saying which. */
export function positionals(p: Parsed, names: string[], usage: string): string[] {
  if (p.positionals.length !== names.length) throw new UsageError(`give ${names.join(' and ')}: ${usage}`);
  return p.positionals;
}

/** `I8=L8,N4=M4` → { I8: 'L8', N4: 'M4' }: freed cell = the unit that advances into it. */
function advances(v: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = /^([a-z]\s?\d{1,2})\s*=\s*([a-z]\s?\d{1,2})$/i.exec(pair);
    if (!m) throw new UsageError(`--advance takes cell=cell pairs like I8=L8, not ${JSON.stringify(pair)}`);
    out[m[1]!.replace(/\s/g, '').toUpperCase()] = m[2]!.replace(/\s/g, '').toUpperCase();
  }
  return out;
}

export const amend: Leaf = {
  spec: {
    name: 'sf referee amend',
    summary: 'amend a closed turn: another unit into a contested cell, or a corrected sheet; a new edict version goes to every player',
    args: '<game> <turn>',
    options: {
      advance: { value: '<cell=cell,…>', help: 'the unit that advances into a freed cell instead (R-ADV-2), e.g. I8=L8' },
      faction: { value: '<faction>', help: 'correct this faction’s sheet (with --sheet-file)' },
      'sheet-file': { value: '<file>', help: 'the sheet as it should have been read' },
      confirm: { help: 'amend even after the dispute window' },
      reason,
    },
    notes: ['Refused once the next turn has been closed. The edict’s earlier versions stay in the archive (R-EDICT-3).'],
    examples: ["sf referee amend test-galaxy 4 --advance I8=L8 --reason 'the Chancellor chose L8'"],
  },
  async run(p) {
    const [gameId, turn] = positionals(p, ['the game', 'the turn'], 'sf referee amend <game> <turn> --reason <text>');
    const file = str(p, 'sheet-file');
    const faction = str(p, 'faction');
    if ((file === undefined) !== (faction === undefined)) throw new UsageError('--faction and --sheet-file go together');
    let sheet: string | undefined;
    if (file !== undefined) {
      try {
        sheet = await readFile(file, 'utf8');
      } catch {
        throw new InputError(`cannot read ${file}`);
      }
    }
    const args = {
      gameId,
      turn: wholeNumber('turn', 'turns', turn),
      reason: str(p, 'reason'),
      advances: advances(str(p, 'advance')),
      faction,
      sheet,
      confirm: p.values.confirm === true,
    };
    const r = (await perform('sf referee amend', 'referee.amend', args)) as { version: number };
    out(`turn ${turn} amended: edict version ${r.version} published; every player will get it`);
    return 0;
  },
};

export const rollback: Leaf = {
  spec: {
    name: 'sf referee rollback',
    summary: 'roll back the last closed turn: it re-opens with its sheets; every player is told',
    args: '<game>',
    options: {
      hours: { value: '<hours>', help: `the re-opened turn is due this many hours from now (1 to ${MAX_ROLLBACK_HOURS})`, required: true },
      reason,
    },
    examples: ["sf referee rollback test-galaxy --hours 48 --reason 'the deadline was announced wrongly'"],
  },
  async run(p) {
    const [gameId] = positionals(p, ['the game'], 'sf referee rollback <game> --hours <h> --reason <text>');
    const r = (await perform('sf referee rollback', 'referee.rollback', {
      gameId,
      hours: wholeNumber('hours', 'hours', str(p, 'hours')),
      reason: str(p, 'reason'),
    })) as { deadline: string };
    out(`the last closed turn of ${gameId} is open again, due ${r.deadline}; every player will be told`);
    return 0;
  },
};

const pauseOrResume = (verb: 'pause' | 'resume', summary: string): Leaf => ({
  spec: {
    name: `sf referee ${verb}`,
    summary,
    args: '<game>',
    options: { reason },
    examples: [`sf referee ${verb} test-galaxy --reason 'a dispute to settle'`],
  },
  async run(p) {
    const [gameId] = positionals(p, ['the game'], `sf referee ${verb} <game> --reason <text>`);
    const r = (await perform(`sf referee ${verb}`, `referee.${verb}`, { gameId, reason: str(p, 'reason') })) as { deadline?: string };
    out(
      verb === 'pause'
        ? `${gameId} is paused; every player will be told`
        : `${gameId} runs again, due ${r.deadline}; every player will be told`,
    );
    return 0;
  },
});

export const pause = pauseOrResume('pause', 'pause a game: no deadline passes until it resumes; every player is told');
export const resume = pauseOrResume('resume', 'resume a paused game: the deadline moves on by the pause; every player is told');

export const length: Leaf = {
  spec: {
    name: 'sf referee length',
    summary: 'set the game’s last turn (R-WIN-2): at its end the most planets win; "none" plays on until R-WIN-1',
    args: '<game> <turn|none>',
    options: { reason },
    notes: ['The last turn is the open turn or a later one: a turn already closed never becomes the last. Every player is told.'],
    examples: [
      "sf referee length test-galaxy 12 --reason 'agreed at the start: twelve turns'",
      "sf referee length test-galaxy none --reason 'play to the end'",
    ],
  },
  async run(p) {
    const [gameId, turn] = positionals(p, ['the game', 'the last turn (or none)'], 'sf referee length <game> <turn|none> --reason <text>');
    const t = turn!.trim().toLowerCase();
    if (t !== 'none' && !/^\d{1,9}$/.test(t)) throw new UsageError(`the last turn is a turn number or none, not ${JSON.stringify(turn)}`);
    const lastTurn = t === 'none' ? null : Number(t);
    const r = (await perform('sf referee length', 'referee.length', { gameId, lastTurn, reason: str(p, 'reason') })) as {
      lastTurn: number | null;
    };
    out(`${gameId} ${r.lastTurn === null ? 'has no last turn' : `ends with turn ${r.lastTurn}`}; every player will be told`);
    return 0;
  },
};

export const replace: Leaf = {
  spec: {
    name: 'sf referee replace',
    summary: 'give a player’s seat to a substitute: a new private address and code, a welcome mail; the old address stops working',
    args: '<game> <faction> <email>',
    options: { lang: { value: '<it|en>', help: 'the substitute’s language', default: 'en' }, reason },
    notes: ['The seat keeps its units and sheets; its history keeps who played it when.'],
    examples: ["sf referee replace test-galaxy sith new@example.org --reason 'Carla has left the game'"],
  },
  async run(p) {
    const [gameId, faction, email] = positionals(
      p,
      ['the game', 'the faction', 'the new address'],
      'sf referee replace <game> <faction> <email> --reason <text>',
    );
    const r = (await perform('sf referee replace', 'referee.replace', {
      gameId,
      faction,
      email,
      lang: str(p, 'lang'),
      reason: str(p, 'reason'),
    })) as { faction: string; email: string };
    out(`${r.email} now plays ${r.faction} in ${gameId}; their welcome mail is queued`);
    return 0;
  },
};

interface ListedDispute {
  id: number;
  turn: number;
  edictVersion: number;
  faction: string;
  player: string;
  reason: string;
  receivedAt: string;
}

/** One block per turn, each dispute on a line and its reason indented under it. */
function disputeList(gameId: string, list: ListedDispute[]): string {
  if (!list.length) return `${gameId}: no open dispute`;
  const lines: string[] = [];
  let turn = 0;
  for (const d of list) {
    if (d.turn !== turn) lines.push(`turn ${(turn = d.turn)}:`);
    lines.push(`  #${d.id}  ${d.faction} (${d.player})  ${new Date(d.receivedAt).toISOString()}  version ${d.edictVersion}`);
    for (const l of d.reason.split('\n')) lines.push(`      ${l}`);
  }
  return lines.join('\n');
}

function disputeNumber(v: string): number {
  const t = v.trim().replace(/^#/, '');
  if (!/^\d{1,9}$/.test(t))
    throw new UsageError(`a dispute is named by its number, as sf referee disputes lists it, not ${JSON.stringify(v)}`);
  return Number(t);
}

async function listDisputes(gameId: string): Promise<number> {
  out(disputeList(gameId, (await perform('sf referee disputes', 'referee.disputes', { gameId })) as ListedDispute[]));
  return 0;
}

export const disputes: Leaf = {
  spec: {
    name: 'sf referee disputes',
    summary: 'the game’s open disputes, by turn: faction, address, when, and the reason',
    args: '<game>',
    options: {},
    notes: ['Settle one by amending the turn (sf referee amend) or by rejecting it (sf referee dispute reject).'],
    examples: ['sf referee disputes test-galaxy'],
  },
  async run(p) {
    const [gameId] = positionals(p, ['the game'], 'sf referee disputes <game>');
    return listDisputes(gameId!);
  },
};

export const dispute: Leaf = {
  spec: {
    name: 'sf referee dispute',
    summary: 'list the open disputes, or reject one with a reason: the edict stands, the disputer is told',
    args: 'list <game> | reject <game> <id>',
    options: { reason: { ...reason, required: false, help: 'why (reject): the disputer and the audit log see it' } },
    notes: ['An amendment of the turn (sf referee amend) settles its open disputes; the next turn’s close lapses them (D-PRESS-15).'],
    examples: [
      'sf referee dispute list test-galaxy',
      "sf referee dispute reject test-galaxy 7 --reason 'I8 was empty: the advance stands'",
    ],
  },
  async run(p) {
    const verb = p.positionals[0];
    if (verb === 'list') {
      const [, gameId] = positionals(p, ['list', 'the game'], 'sf referee dispute list <game>');
      return listDisputes(gameId!);
    }
    if (verb !== 'reject') throw new UsageError('give list <game> or reject <game> <id>');
    const [, gameId, id] = positionals(p, ['reject', 'the game', 'the dispute'], 'sf referee dispute reject <game> <id> --reason <text>');
    const why = str(p, 'reason');
    if (why === undefined) throw new UsageError('rejecting a dispute needs --reason <text>');
    const r = (await perform('sf referee dispute reject', 'referee.dispute.reject', {
      gameId,
      disputeId: disputeNumber(id!),
      reason: why,
    })) as { dispute: number; turn: number; faction: string };
    out(`dispute #${r.dispute} (${r.faction}, turn ${r.turn}) rejected; the disputer will be told`);
    return 0;
  },
};
