// An appointment's services, as a copy on its own row: `service_ids`, its service ids ascending
// and joined by ',' (null when it has none). Availability reads an employee's appointments by
// (employee_id, start_time) and needs each one's services (buffers, shared group sessions); joined
// from appointment_service_types, that was one lookup of the link table per appointment, most of
// the read: one employee's 32 days (192 appointments) 128-138 -> 69 µs on SQLite, 0.39 -> 0.20 ms
// on PostgreSQL with the column in the index (docs/decisions/37-appointment-service-ids.md). The
// index carries it so the read stays index-only.
//
// The link table stays the truth: triggers on it recompute the copy whoever writes links (API,
// seeds, imports), and write only when the copy differs. A booking writes the copy with its
// appointment (appointment.repository.ts), so its link's trigger finds it right and writes nothing.
import { sql, type Kysely } from 'kysely';
import { up as employeeIndexUp } from './2026-11-26-056-employee-busy-index.ts';
import { isPostgres } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('appointments').addColumn('service_ids', 'text').execute();
  await db.schema.dropIndex('appointments_employee_start_idx').execute();
  if (isPostgres(db)) {
    await sql`update appointments a set service_ids = (select string_agg(x.service_type_id::text, ',' order by x.service_type_id)
      from appointment_service_types x where x.appointment_id = a.id)`.execute(db);
    await sql`create index appointments_employee_start_idx on appointments (employee_id, start_time)
      include (status, end_time, company_id, id, service_ids)`.execute(db);
    // The statements inline, not in an SQL function called by the trigger: PostgreSQL plans an SQL
    // function's body at every call, which tripled the trigger's cost (about 100 µs a booking),
    // while PL/pgSQL keeps its statements' plans.
    const refresh = (row: 'new' | 'old') => `
        ids := (select string_agg(x.service_type_id::text, ',' order by x.service_type_id)
                  from appointment_service_types x where x.appointment_id = ${row}.appointment_id);
        update appointments set service_ids = ids where id = ${row}.appointment_id and service_ids is distinct from ids;`;
    await sql`create function appointment_service_ids() returns trigger language plpgsql as $$
      declare
        ids text;
      begin
        if tg_op <> 'INSERT' then ${sql.raw(refresh('old'))}
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.appointment_id <> old.appointment_id) then ${sql.raw(refresh('new'))}
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger appointment_service_ids after insert or delete or update of appointment_id, service_type_id
      on appointment_service_types for each row execute function appointment_service_ids()`.execute(db);
    return;
  }
  await sql`update appointments set service_ids = (select group_concat(x.service_type_id, ',' order by x.service_type_id)
    from appointment_service_types x where x.appointment_id = appointments.id)`.execute(db);
  await db.schema
    .createIndex('appointments_employee_start_idx')
    .on('appointments')
    .columns(['employee_id', 'start_time', 'status', 'end_time', 'company_id', 'service_ids'])
    .execute();
  await createSqliteTriggers(db, orderedGroupConcatIds);
}

/** A row's service ids as this migration wrote them (SQLite 3.44's ordered aggregate; migration 060 replaces it). */
export const orderedGroupConcatIds = (row: 'new' | 'old') => `(select group_concat(x.service_type_id, ',' order by x.service_type_id)
        from appointment_service_types x where x.appointment_id = ${row}.appointment_id)`;

export const SQLITE_TRIGGERS = ['appointment_service_ids_link', 'appointment_service_ids_unlink', 'appointment_service_ids_move'] as const;

/** SQLite's three triggers, `ids` the expression of a row's service ids (migration 060 writes it another way). */
export async function createSqliteTriggers(db: Kysely<any>, ids: (row: 'new' | 'old') => string): Promise<void> {
  const refresh = (row: 'new' | 'old') =>
    `update appointments set service_ids = ${ids(row)} where id = ${row}.appointment_id and service_ids is not ${ids(row)};`;
  const [link, unlink, move] = SQLITE_TRIGGERS;
  for (const [name, event, body] of [
    [link, 'insert', refresh('new')],
    [unlink, 'delete', refresh('old')],
    [move, 'update of appointment_id, service_type_id', `${refresh('old')} ${refresh('new')}`],
  ] as const) {
    await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on appointment_service_types begin ${sql.raw(body)} end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists appointment_service_ids on appointment_service_types`.execute(db);
    await sql`drop function if exists appointment_service_ids()`.execute(db);
  } else {
    for (const t of SQLITE_TRIGGERS) await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
  }
  // Migration 056's index in place of this one (its up() drops the index first), then the column.
  await employeeIndexUp(db);
  await db.schema.alterTable('appointments').dropColumn('service_ids').execute();
}
