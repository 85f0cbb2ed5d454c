// CPU profiles for the benches (BENCH_PROFILE=<dir>), read in DevTools.
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/** BENCH_PROFILE=<dir>: a CPU profile of each intake run alone (not the setup), for DevTools. */
export async function startProfile(): Promise<{ stop(name: string): Promise<void> } | null> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return null;
  const session = new Session();
  session.connect();
  const post = (method: string) => new Promise<unknown>((res, rej) => session.post(method, (err, out) => (err ? rej(err) : res(out))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop(name) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      session.disconnect();
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    },
  };
}
