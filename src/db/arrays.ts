// Many rows in one statement, as one array parameter per column (`unnest`), rather than one
// parameter per cell: a batch of mail writes hundreds of rows, and building and sending a
// parameter per cell cost more than the database's own work.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/** A JavaScript array as ONE query parameter. Drizzle's sql template expands a bare array into a list. */
export const pgArray = (values: readonly unknown[]): SQL => sql`${sql.param(values)}`;

/** The PostgreSQL type of a column's array parameter; jsonb travels as text and is cast. */
export type ColumnType = 'text' | 'integer' | 'bigint' | 'timestamptz' | 'jsonb' | 'bytea';

export type ColumnSpec<Row> = { [K in keyof Row]?: ColumnType };

function cell(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb') return JSON.stringify(value);
  if (type === 'timestamptz') return (value as Date).toISOString();
  if (type === 'bytea') return Buffer.from((value as Uint8Array).buffer, (value as Uint8Array).byteOffset, (value as Uint8Array).byteLength).toString('hex');
  return value;
}

/**
 * `insert into <table> (cols) select … from unnest($1::t1[], $2::t2[], …)`, optionally
 * `on conflict do nothing` and `returning`. `spec` names the columns to write (by their key in
 * the Drizzle table) and their types; absent values are NULL.
 */
export function unnestInsert<T extends PgTable, Row extends object>(
  table: T,
  spec: ColumnSpec<Row>,
  rows: readonly Row[],
  opts: { onConflictDoNothing?: boolean; returning?: Record<string, PgColumn> } = {},
): SQL {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(spec) as Array<keyof Row & string>;
  const names = keys.map((k) => {
    const column = columns[k];
    if (!column) throw new Error(`no column ${k}`);
    return sql.identifier(column.name);
  });
  const arrays = keys.map((k) => {
    const type = spec[k]!;
    // bytea goes as hex text: PGlite's array serialiser has no bytea elements.
    const wire = type === 'jsonb' || type === 'bytea' ? 'text' : type;
    return sql`${pgArray(rows.map((r) => cell((r as Record<string, unknown>)[k], type)))}::${sql.raw(wire)}[]`;
  });
  const selected = keys.map((k, i) => {
    const c = sql`u.${sql.identifier(`c${i}`)}`;
    return spec[k] === 'jsonb' ? sql`${c}::jsonb` : spec[k] === 'bytea' ? sql`decode(${c}, 'hex')` : c;
  });
  const aliases = keys.map((_, i) => sql.identifier(`c${i}`));
  const returning = opts.returning
    ? sql` returning ${sql.join(Object.entries(opts.returning).map(([alias, col]) => sql`${sql.identifier(col.name)} as ${sql.identifier(alias)}`), sql`, `)}`
    : sql``;
  return sql`insert into ${table} (${sql.join(names, sql`, `)})
    select ${sql.join(selected, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(aliases, sql`, `)})
    ${opts.onConflictDoNothing ? sql`on conflict do nothing` : sql``}${returning}`;
}

/** Rows of a raw statement, from either driver (PGlite and node-postgres both answer `{ rows }`). */
export async function rowsOf<R>(db: Db, query: SQL): Promise<R[]> {
  const result = (await db.execute(query)) as unknown as { rows: R[] };
  return result.rows;
}
