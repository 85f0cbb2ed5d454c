// The import graph of src/: fails on any circle and on any import from a lower layer to a higher
// one, so every journey through the program runs downhill (a player's mail: source → intake →
// games → adjudicator; a deadline: turn job → close-turn → edict → outbox).
// Run: node --experimental-strip-types scripts/check-imports.ts [--graph]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Lowest first. A file may import its own layer and any lower one, never a higher one. The first
 * prefix that matches a path (relative to src/) decides its layer.
 */
const LAYERS: readonly (readonly string[])[] = [
  // Pure: the rules engine, and the leaves everything may use (error table, clock helpers, HTML escaping).
  ['adjudicator/', 'errors.ts', 'timing.ts', 'html.ts'],
  // Words: every text a player or referee reads, typed per language.
  ['text/'],
  // Configuration, logging and worker threads: read once at start-up, passed down.
  ['config.ts', 'logger.ts', 'worker-spawn.ts'],
  // The data layer: every query.
  ['db/'],
  // What can happen to a game, and the edict's pictures it sends.
  ['edict/', 'games/', 'referee/'],
  // Mail in and out, driven by the games.
  ['mail/'],
  // The ways in: web pages and the control socket, and what starting up can say.
  ['http/', 'control/', 'startup-errors.ts', 'liveness.ts'],
  // The running service that wires them all.
  ['service.ts', 'turn-loop.ts'],
  // The command line, which starts the service or runs one operation.
  ['cli/', 'cli.ts'],
];

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(p);
    return /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function layerOf(file: string): number {
  const rel = relative(src, file);
  const i = LAYERS.findIndex((prefixes) => prefixes.some((p) => (p.endsWith('/') ? rel.startsWith(p) : rel === p)));
  if (i < 0) throw new Error(`src/${rel} is in no layer: add it to LAYERS in scripts/check-imports.ts`);
  return i;
}

/** The files of src/ this one imports (static, dynamic, type-only and re-exports alike). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')))
    .filter((target) => target.startsWith(src + '/'));
}

const files = filesUnder(src).sort();
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const show = (f: string) => relative(root, f);
const problems: string[] = [];

for (const [from, targets] of graph) {
  for (const to of targets) {
    if (!graph.has(to)) problems.push(`${show(from)} imports ${show(to)}, which does not exist`);
    else if (layerOf(to) > layerOf(from))
      problems.push(`upward: ${show(from)} (layer ${layerOf(from)}) imports ${show(to)} (layer ${layerOf(to)})`);
  }
}

// Circles: Tarjan's strongly connected components; any component of two or more files is one.
let index = 0;
const order = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
function visit(v: string): void {
  order.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!order.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v)!, low.get(w)!));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
  }
  if (low.get(v) === order.get(v)) {
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) problems.push(`circle: ${component.map(show).sort().join(' ↔ ')}`);
  }
}
for (const f of files) if (!order.has(f)) visit(f);

if (process.argv.includes('--graph')) {
  const names = LAYERS.map((l) => l.join(' '));
  for (const [i, n] of names.entries()) console.log(`layer ${i}: ${n}`);
}
const edges = [...graph.values()].reduce((n, t) => n + t.length, 0);
if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`check-imports: ${problems.length} problem(s) in ${files.length} files, ${edges} imports`);
  process.exit(1);
}
console.log(`check-imports: ${files.length} files, ${edges} imports, ${LAYERS.length} layers: no upward import, no circle`);
