// One pino logger for the process: JSON lines, pretty only when a person is watching a TTY.
import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export function createLogger(level: LogLevel, destination: NodeJS.WritableStream = process.stderr): Logger {
  const tty = (destination as { isTTY?: boolean }).isTTY === true;
  if (tty) {
    return pino({ level, transport: { target: 'pino-pretty', options: { destination: 2, translateTime: 'SYS:standard' } } });
  }
  return pino({ level }, destination as pino.DestinationStream);
}
