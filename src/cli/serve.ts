// `sf serve`: runs the service until SIGINT or SIGTERM.
import { ConfigError, loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { startService } from '../service.ts';
import { startOrExplain, stopSignal } from '../startup-errors.ts';

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
  const stop = stopSignal(config);
  const service = await startOrExplain(config, log, () => startService(config, log));
  if (!service) return 1;
  stop.started();
  await stop.requested;
  log.info('stopping');
  await service.stop();
  return 0;
}
