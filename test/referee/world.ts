// A game with a referee, for the console's tests: the app through app.inject on PGlite, and a
// browser-like login (the CSRF cookie and token from the form, then the session cookie).
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/client.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { findTurn, updateTurn } from '../../src/db/turns.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { createGame } from '../../src/games/index.ts';
import { addReferee, assignReferee, setRefereePassword } from '../../src/referee/accounts.ts';

export const NOW = new Date('2026-03-02T10:00:00Z');
export const MAIL = { domain: 'sf.example', ordersLocalPart: 'orders' };

export async function gameWithReferee(
  db: Db,
  name: string,
  players: string[],
  referee: string,
): Promise<{ gameId: string; password: string }> {
  const { game } = await createGame(
    db,
    { name, players: players.map((email) => ({ email })), timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' },
    { actor: 'test', mail: MAIL, now: () => NOW },
  );
  await addReferee(db, referee, 'test');
  // A password of their own: the one-time password of `add` would open one session only.
  const password = `own password of ${referee}`;
  await setRefereePassword(db, referee, 'test', password);
  await assignReferee(db, game.id, referee, 'test');
  return { gameId: game.id, password };
}

const HOMES: Record<string, string[]> = {
  hutt: ['B2', 'B1', 'A2'],
  aristocrats: ['G7', 'G6', 'F7'],
  sith: ['T7', 'T6', 'U7'],
  knights: ['X2', 'X1', 'Y2'],
};

/**
 * A game with a referee whose turn 1 closed just now, by the real clock (its dispute window open),
 * on a contested advance: Hutt I8 between Aristocrats H8 and L8, who are hostile, so I8 falls and
 * both could advance into it (R-ADV-2); the engine picks one, the referee may pick the other.
 */
export async function contestedGame(db: Db, name: string): Promise<{ gameId: string; password: string }> {
  const made = await gameWithReferee(db, name, ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'ref@x.org');
  const { gameId } = made;
  const t1 = (await findTurn(db, gameId, 1))!;
  const units = [
    ...Object.entries(HOMES).flatMap(([side, cells]) => cells.map((at) => ({ side, at }))),
    { side: 'sith', at: 'N9' },
    { side: 'hutt', at: 'I8' },
    { side: 'aristocrats', at: 'H8' },
    { side: 'aristocrats', at: 'L8' },
  ];
  await updateTurn(db, gameId, 1, { state: { ...t1.state, turn: 5, election: false, chancellor: 'sith', units }, election: false });
  await addSheetVersion(db, {
    gameId,
    turn: 1,
    faction: 'aristocrats',
    text: 'H: Hutt',
    parsed: {},
    status: 'valid',
    receivedAt: NOW,
    inboundId: null,
  });
  await closeTurn(db, gameId, 1, { actor: 'system', mail: MAIL }, { force: true });
  return made;
}

/** The cookies a response sets, name → value. */
export function setCookies(res: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
}

/** The CSRF token in the first form of a page. */
export function csrfToken(body: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(body);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1]!;
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export interface Browser {
  cookies: Record<string, string>;
  token: string;
}

/** The login form, fetched as a browser would: its CSRF cookie and token. */
export async function loginForm(app: FastifyInstance, remoteAddress = '127.0.0.1'): Promise<Browser> {
  const res = await app.inject({ method: 'GET', url: '/referee/login', remoteAddress });
  return { cookies: setCookies(res), token: csrfToken(res.body) };
}

export async function postLogin(
  app: FastifyInstance,
  b: Browser,
  email: string,
  password: string,
  remoteAddress = '127.0.0.1',
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/referee/login',
    remoteAddress,
    cookies: b.cookies,
    headers: FORM,
    payload: form({ _csrf: b.token, email, password }),
  });
}

/** Logs in and answers the browser's state: the session cookie, and a token from a console page. */
export async function logIn(app: FastifyInstance, email: string, password: string): Promise<Browser> {
  const b = await loginForm(app);
  const res = await postLogin(app, b, email, password);
  if (res.statusCode !== 303) throw new Error(`login answered ${res.statusCode}`);
  const cookies = { ...b.cookies, ...setCookies(res) };
  const home = await app.inject({ method: 'GET', url: '/referee', cookies });
  return { cookies, token: csrfToken(home.body) };
}
