// The shape of one operation of the registry (operations.ts): a summary for help, its input as one
// zod schema, and what it does with the checked input.
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { GamesContext } from '../games/index.ts';
import type { ArrivedMail, Received } from '../mail/intake/receive.ts';

export interface OperationContext {
  db: Db;
  config: Config;
  log: Logger;
  /** Who asked, for the audit log: `cli:<user>`. */
  actor: string;
  /** Takes one mail in: in the service, through its intake queue, in line with the mail source. */
  receive(mail: ArrivedMail): Promise<Received>;
}

export interface Operation<S extends z.ZodType> {
  summary: string;
  args: S;
  run(ctx: OperationContext, args: z.output<S>): Promise<unknown>;
}

/** Declares an operation, its `run` typed by its schema. */
export const op = <S extends z.ZodType>(o: Operation<S>): Operation<S> => o;

/** What the application layer needs of the asker: who, and how mail is addressed. */
export const gamesContext = (ctx: OperationContext): GamesContext => ({
  actor: ctx.actor,
  mail: { domain: ctx.config.mail.domain, ordersLocalPart: ctx.config.mail.ordersLocalPart },
  publicUrl: ctx.config.http.publicUrl,
  ...(ctx.config.mail.operatorAddress ? { operatorAddress: ctx.config.mail.operatorAddress } : {}),
});
