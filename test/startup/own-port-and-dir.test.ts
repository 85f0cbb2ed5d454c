// No test runs on the defaults (HTTP port 8080, ./data): the service the README starts may be
// running from this checkout beside the tests, and a test on its port or directory fails, or
// writes into its database.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkDirectories } from '../../src/startup-errors.ts';
import { serviceEnv } from './serve-process.ts';

describe('a test never uses the default port or data directory', () => {
  it('a spawned service must be given its own HTTP_PORT and DATA_DIR', () => {
    expect(() => serviceEnv({ DATA_DIR: '/tmp/x' })).toThrow('a test service needs its own HTTP_PORT, never the default');
    expect(() => serviceEnv({ HTTP_PORT: '40000' })).toThrow('a test service needs its own DATA_DIR, never the default');
    expect(serviceEnv({ HTTP_PORT: '40000', DATA_DIR: '/tmp/x' })).toMatchObject({ HTTP_PORT: '40000', DATA_DIR: '/tmp/x' });
  });

  it("a test that takes its configuration from the tests' environment cannot open a data directory", async () => {
    const config = loadConfig(); // process.env, as a command spawned without its own DATA_DIR
    expect(config.dataDir).not.toBe(loadConfig({}).dataDir);
    await expect(checkDirectories(config)).rejects.toThrow(/lies below a file/);
  });
});
