// What intake needs from the configuration, made in one place for the service and for a command
// that reads mail itself (`sf mail ingest` without a running service).
import type { Logger } from 'pino';
import { mailFromAddress, type Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { fileDispute, type GamesContext } from '../../games/index.ts';
import type { IntakeDeps } from './process-inbound.ts';

export function intakeDeps(config: Config, database: Database, log: Logger, now: () => Date = () => new Date()): IntakeDeps {
  // A player's DISPUTE is filed as a game action by mail (R-TURN-2 step 5, D-REF-11..13).
  const games: GamesContext = {
    actor: 'mail',
    mail: { domain: config.mail.domain, ordersLocalPart: config.mail.ordersLocalPart },
    now,
    publicUrl: config.http.publicUrl,
    ...(config.mail.operatorAddress ? { operatorAddress: config.mail.operatorAddress } : {}),
  };
  return {
    fileDispute: (db, a) => fileDispute(db, games, a),
    ...(games.operatorAddress ? { operatorAddress: games.operatorAddress } : {}),
    ...(games.publicUrl ? { publicUrl: games.publicUrl } : {}),
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
