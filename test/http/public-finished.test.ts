// A finished game's page (R-WIN-2): the winner in the page's own header and beside the planets, and
// none of the lines that only mean something while the game runs.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { findGame } from '../../src/db/games.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from '../harness/pglite.ts';
import { buildWorld } from './public-world.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let game: string;
let running: string;

beforeAll(async () => {
  database = await openTestPglite();
  game = (await buildWorld(database.db, { name: 'Nebula', players: 4, turns: 2, lastTurn: 2 })).gameId;
  running = (await buildWorld(database.db, { name: 'Orion', players: 4, turns: 1 })).gameId;
  app = await buildApp({ db: database.db, log: pino({ level: 'silent' }), publicCacheMs: 0, publicUrl: 'https://sf.example.org/' });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('a finished game', () => {
  it('R-WIN-2: names the winner under the heading and beside the planets; no deadline secrecy or election line', async () => {
    expect((await findGame(database.db, game))!.status).toBe('finished');
    for (const lang of ['en', 'it'] as const) {
      const res = await app.inject({ method: 'GET', url: `/games/${game}?lang=${lang}` });
      expect(res.statusCode).toBe(200);
      const lead = /<p class="lead">([\s\S]*?)<\/p>/.exec(res.body)![1]!;
      const victory = lang === 'en' ? /VICTORY: [^<]+\(R-WIN-2/ : /VITTORIA[^<]*: [^<]+\(R-WIN-2/;
      expect(lead, lang).toMatch(victory);
      expect(lead).toContain(lang === 'en' ? 'Turn 2 of 2 · finished' : 'Turno 2 di 2 · finita');
      const planets = res.body.slice(res.body.indexOf('id="planets-h"'));
      expect(planets).toMatch(victory);
      for (const gone of ['stays secret until the deadline', 'resta segreto fino alla scadenza', 'election turn', 'turno di elezione'])
        expect(res.body, `${lang}: ${gone}`).not.toContain(gone);
    }
  });

  it('its pages say nothing of orders staying secret in their footer; a running game and the list of games still do', async () => {
    const footer = (body: string) => /<footer class="site">([\s\S]*?)<\/footer>/.exec(body)![1]!;
    const secret = /secret|segret/i;
    expect((await findGame(database.db, running))!.status).not.toBe('finished');
    for (const lang of ['en', 'it'] as const) {
      for (const url of [`/games/${game}`, `/games/${game}/turns/1`, `/games/${game}/turns/2/v/1`, `/games/${game}/press`]) {
        const res = await app.inject({ method: 'GET', url: `${url}?lang=${lang}` });
        expect(res.statusCode, url).toBeLessThan(500);
        expect(footer(res.body), `${lang} ${url}`).toContain('Starts Foundation');
        expect(footer(res.body), `${lang} ${url}`).not.toMatch(secret);
      }
      for (const url of ['/', `/games/${running}`, `/games/${running}/turns/1`]) {
        const res = await app.inject({ method: 'GET', url: `${url}?lang=${lang}` });
        expect(res.statusCode, url).toBe(200);
        expect(footer(res.body), `${lang} ${url}`).toMatch(secret);
      }
    }
  });
});
