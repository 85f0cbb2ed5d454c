// PostgreSQL cut at an exact step: a trigger that ends its own session (pg_terminate_backend, as
// an administrator or a restart would) when a chosen row change happens, the next `times` times.
// The client sees 57P01 in the middle of that statement and its transaction is rolled back; the
// counter is a sequence, which no rollback undoes.
import pg from 'pg';

export interface Cut {
  /** Cuts the next `times` matching statements. */
  arm(times: number): Promise<void>;
  /** How many statements were cut so far. */
  cuts(): Promise<number>;
  close(): Promise<void>;
}

/**
 * `table`: where; `event`: 'insert' or 'update'; `when`: a trigger WHEN condition on NEW/OLD
 * (e.g. `new.status = 'sent'`). `name` keeps several cuts apart.
 */
export async function cutAt(url: string, name: string, table: string, event: 'insert' | 'update', when = 'true'): Promise<Cut> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`
    create table if not exists test_cut_armed (name text primary key, until bigint not null);
    create sequence if not exists test_cut_${name}_seq;
    create or replace function test_cut_${name}() returns trigger language plpgsql as $$
    begin
      if coalesce((select until from test_cut_armed where name = '${name}'), 0) > (select case when is_called then last_value else 0 end from test_cut_${name}_seq) then
        perform nextval('test_cut_${name}_seq');
        perform pg_terminate_backend(pg_backend_pid());
        perform pg_sleep(5); -- the termination lands here, before the statement can finish
      end if;
      return new;
    end $$;
    drop trigger if exists test_cut_${name} on ${table};
    create trigger test_cut_${name} before ${event} on ${table} for each row when (${when}) execute function test_cut_${name}();
  `);
  const done = async () =>
    Number(
      (await admin.query<{ n: string }>(`select case when is_called then last_value else 0 end as n from test_cut_${name}_seq`)).rows[0]!.n,
    );
  return {
    async arm(times) {
      const n = await done();
      await admin.query(
        `insert into test_cut_armed (name, until) values ($1, $2) on conflict (name) do update set until = excluded.until`,
        [name, n + times],
      );
    },
    cuts: done,
    async close() {
      await admin.query(`drop trigger if exists test_cut_${name} on ${table}`);
      await admin.end();
    },
  };
}
