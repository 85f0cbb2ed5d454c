// What intake needs from the configuration, made in one place for the service and for a command
// that reads mail itself (`sf mail ingest` without a running service).
import type { Logger } from 'pino';
import { mailFromAddress, type Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { IntakeDeps } from './process-inbound.ts';

export function intakeDeps(config: Config, database: Database, log: Logger, now: () => Date = () => new Date()): IntakeDeps {
  return {
    db: database.db,
    log,
    now,
    mail: {
      domain: config.mail.domain,
      ordersLocalPart: config.mail.ordersLocalPart,
      maxBytes: config.mail.maxBytes,
      replyRateLimitPerHour: config.mail.replyRateLimitPerHour,
      ourAddresses: [mailFromAddress(config.mail)],
    },
  };
}
