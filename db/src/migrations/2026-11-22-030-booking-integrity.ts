// Booking integrity support: the longest appointment each company has ever had (the sound look-back
// bound of every day-bounded appointments query) and the lease that owns an in-progress idempotency key.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  // A day's overlapping appointments are read as `start_time >= dayStart - longest` through the
  // (company_id, start_time) index. The longest *service* is not a sound bound (services get shorter,
  // staff set their own end times), so the database keeps the longest appointment per company, rising
  // only, maintained by triggers so that rows written by seeds or imports count too.
  await db.schema
    .alterTable('companies')
    .addColumn('longest_appointment_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Who currently runs an in-progress key: the finishing write checks it, so a request whose lease
  // was taken over after it stalled can never also commit its change.
  await db.schema.alterTable('idempotency_keys').addColumn('owner_token', 'text').execute();

  if (isPostgres(db)) {
    const minutes = sql`ceil(extract(epoch from (new.end_time - new.start_time)) / 60)::integer`;
    await sql`create function appointments_track_longest() returns trigger language plpgsql as $$
      begin
        update companies set longest_appointment_minutes = ${minutes}
         where id = new.company_id and longest_appointment_minutes < ${minutes};
        return null;
      end $$`.execute(db);
    await sql`create trigger appointments_track_longest after insert or update of start_time, end_time, company_id
      on appointments for each row execute function appointments_track_longest()`.execute(db);
    await sql`update companies set longest_appointment_minutes = coalesce((
      select max(ceil(extract(epoch from (a.end_time - a.start_time)) / 60))::integer
        from appointments a where a.company_id = companies.id), 0)`.execute(db);
    return;
  }
  // strftime('%s') drops the milliseconds; adding a whole minute before dividing keeps the bound above the truth.
  const minutes = (row: string) =>
    sql.raw(`((cast(strftime('%s', ${row}.end_time) as integer) - cast(strftime('%s', ${row}.start_time) as integer) + 60) / 60)`);
  for (const [name, event] of [
    ['appointments_track_longest_ins', 'insert'],
    ['appointments_track_longest_upd', 'update of start_time, end_time, company_id'],
  ] as const) {
    await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on appointments begin
      update companies set longest_appointment_minutes = ${minutes('new')}
       where id = new.company_id and longest_appointment_minutes < ${minutes('new')};
    end`.execute(db);
  }
  await sql`update companies set longest_appointment_minutes = coalesce((
    select max(${minutes('a')}) from appointments a where a.company_id = companies.id), 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists appointments_track_longest on appointments`.execute(db);
    await sql`drop function if exists appointments_track_longest()`.execute(db);
  } else {
    await sql`drop trigger if exists appointments_track_longest_ins`.execute(db);
    await sql`drop trigger if exists appointments_track_longest_upd`.execute(db);
  }
  await db.schema.alterTable('idempotency_keys').dropColumn('owner_token').execute();
  await db.schema.alterTable('companies').dropColumn('longest_appointment_minutes').execute();
}
