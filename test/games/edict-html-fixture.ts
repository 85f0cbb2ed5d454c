// An edict mail as players get it, built without a database: the crowded 8-faction turn (moves,
// jumps, combat, contested advances, production) with a hostile 80-character game name and a sheet
// that carries a greeting, a name and a phone number, and an election turn decided by lot.
import { adjudicate } from '../../src/adjudicator/adjudicate.ts';
import { classicMap } from '../../src/adjudicator/map.ts';
import type { Edict, Lang } from '../../src/adjudicator/types.ts';
import type { Game } from '../../src/db/games.ts';
import type { Player } from '../../src/db/players.ts';
import { edictMails, type EdictMailArgs } from '../../src/games/edict-mail.ts';
import type { OutboxInput } from '../../src/db/outbox.ts';
import { crowdedTurn, scenarioEdict } from '../edict/positions.ts';

export const board = classicMap();
/** 80 characters with an unbroken 40-character word and markup that must stay text. */
export const LONG_NAME = `<b>Orione</b> & Co. ${'Supercalifragilistichespiralidosissimo'.padEnd(40, 'X')} lega del nord-est!`.padEnd(
  80,
  '.',
);
/** What a player wrote around their orders: it must never reach another player's mail (R-EDICT-4). */
// The first looks like an order (a cell) and cannot be read: a problem, published as its line and
// kind only; the others are text around the orders (D-PARSE-16), never published at all.
export const PRIVATE_LINES = ['B2 verso Bellatrix <script>alert(1)</script>', 'Ciao a tutti,', 'Anna Rossi', 'cell. +39 333 555 0101'];

/** The crowded turn with the Hutt's sheet wrapped in a greeting and a signature. */
export function crowdedEdictWithChatter(): Edict {
  const { state, sheets } = crowdedTurn();
  sheets.hutt = `${PRIVATE_LINES.slice(0, 2).join('\n')}\n${sheets.hutt}${PRIVATE_LINES.slice(2).join('\n')}\n`;
  return adjudicate(board, state, sheets).edict;
}

export function electionEdict(): Edict {
  return scenarioEdict('elec-lot-turn2-two-way');
}

/** The edict mail to an Italian and an English player, the assets stored elsewhere (ids only). */
export function edictMailsFor(edict: Edict, opts: { name?: string; reason?: string | null } = {}): OutboxInput[] {
  const game = { id: 'g1', name: opts.name ?? LONG_NAME, timeZone: 'Europe/Rome' } as Game;
  const player = (id: number, lang: Lang) =>
    ({ id, lang, email: `p${id}@example.com`, secret: `s${id}`, timeZone: null }) as unknown as Player;
  const args: EdictMailArgs = {
    board,
    game,
    edict,
    version: opts.reason ? 2 : 1,
    reason: opts.reason ?? null,
    players: [player(1, 'it'), player(2, 'en')],
    nextTurn: { deadline: new Date('2025-03-30T18:00:00Z'), declarationDeadline: new Date('2025-03-30T16:00:00Z') },
    assets: {
      json: { assetId: 1, filename: 'edict.json', contentType: 'application/json' },
      map: {
        png: (l) => ({ assetId: l === 'it' ? 2 : 3, filename: 'map.png', contentType: 'image/png', cid: 'map@starts-foundation' }),
        alt: (l) => `alt ${l} <map>`,
      },
    },
    mail: { domain: 'sf.test', ordersLocalPart: 'orders' },
  };
  return edictMails(args);
}

/**
 * An election edict's mail arguments for the game `g1` "Orione" (Rome) with an Italian and an
 * English player, the next turn due, a public URL: `game` and `over` change what a test is about.
 */
export function edictMailArgs(game: Partial<Game> = {}, over: Partial<EdictMailArgs> = {}): EdictMailArgs {
  const player = (id: number, lang: Lang) =>
    ({ id, lang, email: `p${id}@example.com`, secret: `s${id}`, timeZone: null }) as unknown as Player;
  return {
    board,
    game: { id: 'g1', name: 'Orione', timeZone: 'Europe/Rome', pressSettings: {}, ...game } as Game,
    edict: electionEdict(),
    version: 1,
    reason: null,
    players: [player(1, 'it'), player(2, 'en')],
    nextTurn: { deadline: new Date('2025-03-30T18:00:00Z'), declarationDeadline: new Date('2025-03-30T16:00:00Z') },
    assets: {
      json: { assetId: 1, filename: 'edict.json', contentType: 'application/json' },
      map: { png: () => ({ assetId: 2, filename: 'map.png', contentType: 'image/png', cid: 'map@starts-foundation' }), alt: () => 'alt' },
    },
    mail: { domain: 'sf.test', ordersLocalPart: 'orders' },
    publicUrl: 'https://sf.example/',
    ...over,
  };
}
