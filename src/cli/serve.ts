// `sf serve`: runs the service until SIGINT or SIGTERM.
import { ConfigError, loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { startService } from '../service.ts';

export async function run(_args: string[]): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  const service = await startService(config, log);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log.info('stopping');
  await service.stop();
  return 0;
}
