// `sf referee amend` draws the amended edict's map on a worker thread: the command must still end
// once it has said what it did, like every other command (run as a child process, as a person does).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { createGame } from '../../src/games/index.ts';

const tmp = mkdtempSync(join(tmpdir(), 'sf-amend-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A game on an embedded database in DATA_DIR=tmp whose turn 1 is closed. */
async function closedTurnGame(): Promise<string> {
  const database = await openDatabase(loadConfig({ DATA_DIR: tmp }));
  try {
    const ctx = { actor: 'system', mail: { domain: 'sf.test', ordersLocalPart: 'orders' } };
    const { game } = await createGame(
      database.db,
      {
        name: 'Exits',
        players: ['a', 'b', 'c', 'd'].map((x) => ({ email: `${x}@example.com`, lang: 'en' as const })),
        timeZone: 'Europe/Rome',
        weeklyDeadline: 'sun 20:00',
      },
      ctx,
    );
    await closeTurn(database.db, game.id, 1, ctx, { force: true });
    return game.id;
  } finally {
    await database.close();
  }
}

describe('sf referee amend', () => {
  it('stores the new version, says so and exits 0 (the map worker does not keep it running)', async () => {
    const gameId = await closedTurnGame();
    const sheet = join(tmp, 'hutt.txt');
    writeFileSync(sheet, 'V: Hutt\n');
    // The limit only turns a hang into a failure; the command takes a few seconds.
    const r = await new Promise<{ code: number | null; killed: boolean; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [
          'bin/sf.js',
          'referee',
          'amend',
          gameId,
          '1',
          '--faction',
          'hutt',
          '--sheet-file',
          sheet,
          '--reason',
          'the sheet was misread',
          '--confirm',
        ],
        { cwd: join(import.meta.dirname, '../..'), env: { ...process.env, DATA_DIR: tmp }, timeout: 240_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, killed: child.killed, stdout, stderr }),
      );
    });
    expect(r.killed, 'the command did not end').toBe(false);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('turn 1 amended: edict version 2 published; every player will get it\n');
    expect(r.code).toBe(0);
  }, 360_000);
});
