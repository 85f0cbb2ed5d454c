// Database errors as the log should see them. Drizzle's error repeats the whole query with every
// parameter: for intake that is every mail of a batch, bytes and secret orders included.
import { DrizzleQueryError } from 'drizzle-orm/errors';

export function loggableDbError(err: unknown): Error {
  if (!(err instanceof DrizzleQueryError) || !(err.cause instanceof Error)) {
    return err instanceof Error ? err : new Error(String(err));
  }
  const cause = err.cause as Error & { code?: string };
  const brief = new Error(`database: ${cause.message}`) as Error & { code?: string };
  if (cause.code) brief.code = cause.code;
  return brief;
}
