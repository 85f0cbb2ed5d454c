// Database errors reach the log without the query's parameters (whole mails, secret orders).
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { loggableDbError } from '../../src/db/errors.ts';

describe('loggableDbError', () => {
  it("keeps the driver's message and code and drops the query with its parameters", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' });
    const err = loggableDbError(new DrizzleQueryError('insert into inbound_messages …', ['V: Sith secret orders', 'deadbeef'], cause));
    expect(err.message).toBe('database: duplicate key value violates unique constraint "x"');
    expect((err as Error & { code?: string }).code).toBe('23505');
    expect(JSON.stringify({ m: err.message, s: err.stack })).not.toContain('secret orders');
  });

  it('leaves other errors as they are', () => {
    const plain = new Error('boom');
    expect(loggableDbError(plain)).toBe(plain);
    expect(loggableDbError('text').message).toBe('text');
  });
});
