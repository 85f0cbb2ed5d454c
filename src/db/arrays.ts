// Many rows in one statement, as one parameter, rather than one parameter per cell: a batch of
// mail writes hundreds of rows, and building and sending a parameter per cell cost more than
// the database's own work.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/** A JavaScript array as ONE query parameter. Drizzle's sql template expands a bare array into a list. */
export const pgArray = (values: readonly unknown[]): SQL => sql`${sql.param(values)}`;

/** The PostgreSQL type of a column. */
type ColumnType = 'text' | 'text[]' | 'integer' | 'bigint' | 'boolean' | 'timestamptz' | 'jsonb' | 'bytea';

export type ColumnSpec<Row> = { [K in keyof Row]?: ColumnType };

function cell(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'timestamptz') return (value as Date).toISOString();
  if (type === 'bytea')
    return Buffer.from((value as Uint8Array).buffer, (value as Uint8Array).byteOffset, (value as Uint8Array).byteLength).toString('base64');
  return value;
}

/**
 * `insert into <table> (cols) select … from json_to_recordset($1)`, optionally `on conflict do
 * nothing` and `returning`. `spec` names the columns to write (by their key in the Drizzle table)
 * and their types; absent values are NULL. The rows travel as ONE JSON parameter: V8 writes JSON
 * natively and PostgreSQL reads it in C, where per-element array escaping in the drivers cost
 * more than the inserts themselves.
 */
export function recordsetInsert<T extends PgTable, Row extends object>(
  table: T,
  spec: ColumnSpec<Row>,
  rows: readonly Row[],
  opts: {
    onConflictDoNothing?: boolean;
    returning?: Record<string, PgColumn> | '*';
    /** What a column takes where a row has no value (its DEFAULT cannot be named in an expression). */
    orElse?: { [K in keyof Row]?: SQL };
  } = {},
): SQL {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(spec) as Array<keyof Row & string>;
  const names = keys.map((k) => {
    const column = columns[k];
    if (!column) throw new Error(`no column ${k}`);
    return column.name;
  });
  const records = rows.map((r) => {
    const out: Record<string, unknown> = {};
    keys.forEach((k, i) => (out[`c${i}`] = cell((r as Record<string, unknown>)[k], spec[k]!)));
    return out;
  });
  // jsonb stays a JSON value inside the record; bytea travels as base64 text (a third larger, where hex is twice).
  const definition = keys.map((k, i) => `c${i} ${spec[k] === 'bytea' ? 'text' : spec[k]}`).join(', ');
  const selected = keys.map((k, i) => {
    const value = spec[k] === 'bytea' ? sql.raw(`decode(x.c${i}, 'base64')`) : sql.raw(`x.c${i}`);
    const fallback = opts.orElse?.[k];
    return fallback ? sql`coalesce(${value}, ${fallback})` : value;
  });
  const returning =
    opts.returning === '*'
      ? sql` returning *`
      : opts.returning
        ? sql` returning ${sql.join(
            Object.entries(opts.returning).map(([alias, col]) => sql`${sql.identifier(col.name)} as ${sql.identifier(alias)}`),
            sql`, `,
          )}`
        : sql``;
  return sql`insert into ${table} (${sql.join(
    names.map((n) => sql.identifier(n)),
    sql`, `,
  )})
    select ${sql.join(selected, sql`, `)} from json_to_recordset(${JSON.stringify(records)}::json) as x(${sql.raw(definition)})
    ${opts.onConflictDoNothing ? sql`on conflict do nothing` : sql``}${returning}`;
}

/**
 * Whole rows of `table` as a raw statement returns them (`returning *`, by column name), as
 * Drizzle's own queries would give them: each value through its column's driver mapping.
 */
export function tableRowsFrom<T extends PgTable>(table: T, raw: ReadonlyArray<Record<string, unknown>>): Array<T['$inferSelect']> {
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>);
  return raw.map((r) => {
    const out: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = r[column.name];
      out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return out as T['$inferSelect'];
  });
}

/** Rows of a raw statement, from either driver (PGlite and node-postgres both answer `{ rows }`). */
export async function rowsOf<R>(db: Db, query: SQL): Promise<R[]> {
  const result = (await db.execute(query)) as unknown as { rows: R[] };
  return result.rows;
}
