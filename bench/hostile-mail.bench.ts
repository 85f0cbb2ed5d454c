// Reading hostile mail: each shape that once made reading super-linear, fed at 100 KB,
// 1 MB and 10 MB through extractMail — the extraction `sf mail inspect` and intake run — printing
// seconds per MB and the 10 MB / 1 MB time ratio. Targets: linear (10 MB ≤ 12 × 1 MB) and ≤ 0.5 s
// per MB for every shape. The last column adds the sheet parser (all of `sf mail inspect`) at
// 1 MB, for information. Times are the process's CPU seconds (user + system, all its threads):
// on a machine shared with others wall time measures their load too. Each size takes the best of
// two or three runs, each after a full garbage collection (garbage left by the previous run is
// not this one's).
// Always exits 0 (a benchmark is never a failing test).
//
//   npm run bench:hostile                       (BENCH_SHAPE=<part of a name> for some shapes only)
import { extractMail } from '../src/mail/read/extract.ts';
import { inspectMail } from '../src/mail/read/inspect.ts';
import { HOSTILE_SHAPES } from '../test/mail/hostile-shapes.ts';

const MB = 1024 * 1024;
// The service's default cap (MAX_MAIL_BYTES): the 10 MB mail is built just under it, so it is read.
const OPTIONS = { maxBytes: 10 * MB, ourDomain: 'example.org', ordersLocalPart: 'orders' };
const SIZES = [
  { bytes: 100 * 1024, tries: 3 },
  { bytes: MB, tries: 3 },
  { bytes: 10 * MB - 1024, tries: 2 },
];
const ONLY = process.env.BENCH_SHAPE;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

async function best(raw: Buffer, tries: number, run: (raw: Buffer) => Promise<unknown>): Promise<number> {
  let s = Infinity;
  for (let i = 0; i < tries; i++) {
    gc();
    const t = process.cpuUsage();
    await run(raw);
    const used = process.cpuUsage(t);
    s = Math.min(s, (used.user + used.system) / 1e6);
  }
  return s;
}
const extract = (raw: Buffer) => extractMail(raw, OPTIONS);
const inspect = (raw: Buffer) => inspectMail(raw, OPTIONS);

const rows: string[][] = [['shape', 's/MB 100KB', 's/MB 1MB', 's/MB 10MB', '10MB/1MB', 'verdict', 'inspect s/MB 1MB']];
for (const shape of HOSTILE_SHAPES) {
  if (ONLY && !shape.name.includes(ONLY)) continue;
  await extract(shape.build(10 * 1024)); // warm the code paths
  const perMb: number[] = [];
  const times: number[] = [];
  for (const { bytes, tries } of SIZES) {
    const raw = shape.build(bytes);
    const s = await best(raw, tries, extract);
    times.push(s);
    perMb.push(s / (raw.length / MB));
  }
  const oneMb = shape.build(MB);
  const inspected = (await best(oneMb, 1, inspect)) / (oneMb.length / MB);
  const ratio = times[2]! / Math.max(times[1]!, 1e-6);
  const ok = ratio <= 12 && perMb.every((x) => x <= 0.5);
  rows.push([shape.name, ...perMb.map((x) => x.toFixed(3)), ratio.toFixed(1), ok ? 'ok' : 'MISSED', inspected.toFixed(3)]);
  console.error(`${shape.name}: done`);
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
