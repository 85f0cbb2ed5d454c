// The deployment files say what the service needs: no Docker
// engine runs here, so these read the files themselves. Every variable loadConfig reads
// (CONFIG_VARIABLES, held to what it reads by config.test.ts) is passed through by compose and
// documented with its default in the README.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config.ts';

const text = (file: string) => readFile(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The keys of one service's `environment:` map in a compose file (a map, not a list, by choice). */
function composeEnvironment(compose: string, service: string): Map<string, string> {
  const lines = compose.split('\n');
  const env = new Map<string, string>();
  let i = lines.findIndex((l) => l === `  ${service}:`);
  expect(i, `service ${service}`).toBeGreaterThan(-1);
  for (i++; i < lines.length && !/^ {2}\S/.test(lines[i]!) && lines[i]!.trim() !== ''; i++) {
    if (lines[i] !== '    environment:') continue;
    for (i++; i < lines.length && (/^ {6}/.test(lines[i]!) || lines[i]!.trim() === ''); i++) {
      const m = /^ {6}([A-Z_]+): ?(.*)$/.exec(lines[i]!);
      if (m) env.set(m[1]!, m[2]!);
    }
    break;
  }
  return env;
}

/** A README section, from its `## title` to the next `## `. */
function section(readme: string, title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README section ${title}`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** The node flags of a command line that runs `bin/sf.js serve`. */
const nodeFlags = (command: string) => /node((?: --?[\w-]+(?:=\S+)?)*) bin\/sf\.js serve/.exec(command)?.[1]?.trim() ?? null;

describe('docker-compose.yml', () => {
  it('passes every configuration variable to the app', async () => {
    const env = composeEnvironment(await text('docker-compose.yml'), 'app');
    expect([...env.keys()].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('keeps the database password out of DATABASE_URL', async () => {
    const env = composeEnvironment(await text('docker-compose.yml'), 'app');
    expect(env.get('DATABASE_URL')).not.toContain('PASSWORD');
    expect(env.get('DATABASE_URL')).toMatch(/^postgres:\/\/[^:@]+@db:5432\/\w+$/);
    expect(env.get('DATABASE_PASSWORD')).toBe('${POSTGRES_PASSWORD}');
  });

  it('lets every optional variable fall back to the service default (no empty literal)', async () => {
    for (const [name, value] of composeEnvironment(await text('docker-compose.yml'), 'app')) {
      expect(value, name).not.toBe('');
      if (value.startsWith('${')) expect(value, name).toMatch(/^\$\{[A-Z_]+(:-[^}]*)?\}$/);
    }
  });
});

describe('docker-compose.yml, stopping', () => {
  it("waits longer than Docker's default 10 s before SIGKILL, so mail under way is finished", async () => {
    const compose = await text('docker-compose.yml');
    const app = compose.slice(compose.indexOf('\n  app:\n'));
    const grace = /^ {4}stop_grace_period: (\d+)s$/m.exec(app);
    expect(Number(grace?.[1])).toBeGreaterThanOrEqual(30);
  });
});

describe('Dockerfile', () => {
  it('creates /data owned by the user the service runs as, before switching to it', async () => {
    const lines = (await text('Dockerfile')).split('\n');
    const user = lines.findIndex((l) => /^USER \S+/.test(l));
    expect(user).toBeGreaterThan(-1);
    const runtimeUser = lines[user]!.split(/\s+/)[1]!;
    const chown = lines.findIndex((l) => /^RUN .*mkdir -p \/data\b.*&& chown /.test(l));
    expect(chown).toBeGreaterThan(-1);
    expect(chown).toBeLessThan(user);
    expect(lines[chown]).toContain(`chown ${runtimeUser}:${runtimeUser} /data`);
    const volume = lines.findIndex((l) => l === 'VOLUME /data');
    // Docker copies the owner into a new named volume only if the directory is set up first.
    expect(volume).toBeGreaterThan(chown);
  });

  it('has an app health check that asks /health', async () => {
    const dockerfile = await text('Dockerfile');
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\\\n\s+CMD .*\/health/m);
  });

  it('starts node directly with the same flags as npm start', async () => {
    const cmd = /^CMD (\[.*\])$/m.exec(await text('Dockerfile'))?.[1];
    expect(cmd).toBeDefined();
    const argv = JSON.parse(cmd!) as string[];
    const pkg = JSON.parse(await text('package.json')) as { scripts: { start: string } };
    expect(argv[0]).toBe('node');
    expect(nodeFlags(argv.join(' '))).toBe(nodeFlags(pkg.scripts.start));
  });
});

describe('npm start', () => {
  // npm runs scripts through sh; without exec, SIGTERM to npm stops sh and leaves node running
  // holding the port. npm-start.int.test.ts stops a real `npm start` by its pid.
  it('replaces the shell with node, so npm passes signals to the service', async () => {
    const pkg = JSON.parse(await text('package.json')) as { scripts: { start: string } };
    expect(pkg.scripts.start).toMatch(/^exec node .*bin\/sf\.js serve$/);
  });
});

describe('README', () => {
  it('documents every variable with its default under Configuration and under Deployment', async () => {
    const readme = await text('README.md');
    for (const title of ['Configuration', 'Deployment']) {
      const rows = section(readme, title)
        .split('\n')
        .filter((l) => l.startsWith('| `'));
      for (const name of CONFIG_VARIABLES) {
        const row = rows.find((r) => r.split('|')[1]!.includes(`\`${name}\``));
        expect(row, `${title}: ${name}`).toBeDefined();
        expect(row!.split('|')[2]!.trim(), `${title}: default of ${name}`).not.toBe('');
      }
    }
  });
});
