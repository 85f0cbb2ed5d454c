// D-PARSE-16: greetings, thanks, names, phone numbers and addresses around the orders are text,
// not problems. Through real intake: the sheet is valid, the acknowledgement lists each such line
// under NOTES in the writer's language, and a mail of chatter alone is not a sheet (D-MAIL-1).
import { beforeEach, describe, expect, it } from 'vitest';
import { listOutbox } from '../../../src/db/outbox.ts';
import { latestSheet } from '../../../src/db/sheets.ts';
import { ADDRESSES, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const outbox = async (kind: string) => (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === kind);
const send = (i: number, body: string) => deliver(world, orderMail({ from: ADDRESSES[i]!, to: privateTo(world, i), body }));

describe('text around the orders (D-PARSE-16)', () => {
  it('an Italian sheet with a greeting, thanks, a name and a phone number is valid, each line noted in Italian', async () => {
    const r = await send(0, 'Ciao a tutti,\nV: Hutt\nGrazie!\nAnna Rossi\ncell. +39 333 555 0101\nVia Roma 12, Milano\n');
    expect(r.result).toMatchObject({ outcome: 'sheet' });
    const sheet = (await latestSheet(world.database.db, 'andromeda', 1, 'hutt'))!;
    expect(sheet.status).toBe('valid');
    const text = (await outbox('ack')).at(-1)!.bodyText;
    expect(text).toContain('Stato: valido, nessun problema.');
    expect(text).not.toContain('PROBLEMI');
    expect(text).toContain("NOTE\n  Riga 1: 'Ciao a tutti,': testo ignorato, non è un ordine.");
    for (const [n, line] of [
      [3, 'Grazie!'],
      [4, 'Anna Rossi'],
      [5, 'cell. +39 333 555 0101'],
      [6, 'Via Roma 12, Milano'],
    ] as const) {
      expect(text).toContain(`  Riga ${n}: '${line}': testo ignorato`);
    }
  });

  it('an English sign-off is noted in English; a line shaped like an order is still a problem (R-ORD-8)', async () => {
    await send(1, 'Hi Chancellery,\nV: Hutt\nB2 is mine\nCheers!\nBob\n');
    const sheet = (await latestSheet(world.database.db, 'andromeda', 1, 'aristocrats'))!;
    expect(sheet.status).toBe('problems');
    const text = (await outbox('ack')).at(-1)!.bodyText;
    expect(text).toContain("PROBLEMS\n  Line 3: 'B2 is mine' is not an order I understand");
    expect(text).toContain("NOTES\n  Line 1: 'Hi Chancellery,': text ignored, not an order.");
    expect(text).toContain("  Line 5: 'Bob': text ignored");
  });

  it('chatter alone is not a sheet: the standing sheet stays (D-MAIL-1)', async () => {
    await send(0, 'V: Hutt\n');
    const r = await send(0, 'Grazie!\nAnna\n');
    expect(r.result).toMatchObject({ outcome: 'no-sheet' });
    expect((await latestSheet(world.database.db, 'andromeda', 1, 'hutt'))!.text).toBe('V: Hutt');
    expect((await outbox('unreadable')).at(-1)!.bodyText).toContain('nessuna riga della mail è un ordine');
  });

  it('a letter of chatter lists the first notes and counts the rest', async () => {
    const chatter = Array.from({ length: 80 }, (_, i) => `riga di chiacchiere numero ${i}`).join('\n');
    await send(0, `V: Hutt\n${chatter}\n`);
    const text = (await outbox('ack')).at(-1)!.bodyText;
    expect(text).toContain('  … e altre 30 note');
    expect(text).not.toContain('numero 79');
  });
});
