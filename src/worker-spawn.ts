// Starting a worker thread from a module of ours: the compiled .js beside the caller, or, when the
// caller runs as TypeScript through tsx (`npx sf`, the tests), the .ts source registered through
// tsx's ESM API (its CommonJS build cannot be imported from an eval'd worker).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `callerUrl`: the caller's import.meta.url; `name`: the worker module beside it, without extension. */
export function spawnWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const tsx = pathToFileURL(join(dirname(createRequire(callerUrl).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const worker = new URL(`./${name}.ts`, callerUrl).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(worker)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
