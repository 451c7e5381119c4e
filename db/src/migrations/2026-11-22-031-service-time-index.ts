// Availability reads one service's appointments of a time range without touching the rest of the
// company's day: `service_bookings` holds one row per (appointment, service) link with the
// appointment's time and status, indexed by (service_type_id, start_time). Triggers keep it exact
// whoever writes appointments or their links (API, seeds, imports); nothing writes it directly.
import { sql, type Kysely } from 'kysely';
import { isPostgres, timestampType } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('service_bookings')
    .addColumn('appointment_id', 'integer', (c) => c.notNull().references('appointments.id').onDelete('cascade'))
    .addColumn('service_type_id', 'integer', (c) => c.notNull().references('service_types.id').onDelete('cascade'))
    .addColumn('start_time', ts, (c) => c.notNull())
    .addColumn('end_time', ts, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_bookings_pk', ['appointment_id', 'service_type_id'])
    .execute();
  // Covering: a range of one service's bookings is answered from the index alone.
  await db.schema
    .createIndex('service_bookings_service_start_idx')
    .on('service_bookings')
    .columns(['service_type_id', 'start_time', 'end_time', 'status', 'appointment_id'])
    .execute();
  await sql`insert into service_bookings (appointment_id, service_type_id, start_time, end_time, status)
    select s.appointment_id, s.service_type_id, a.start_time, a.end_time, a.status
      from appointment_service_types s join appointments a on a.id = s.appointment_id`.execute(db);

  if (isPostgres(db)) {
    await sql`create function service_bookings_link() returns trigger language plpgsql as $$
      begin
        insert into service_bookings (appointment_id, service_type_id, start_time, end_time, status)
          select a.id, new.service_type_id, a.start_time, a.end_time, a.status from appointments a where a.id = new.appointment_id
          on conflict (appointment_id, service_type_id) do update
            set start_time = excluded.start_time, end_time = excluded.end_time, status = excluded.status;
        return null;
      end $$`.execute(db);
    await sql`create trigger service_bookings_link after insert on appointment_service_types
      for each row execute function service_bookings_link()`.execute(db);
    await sql`create function service_bookings_unlink() returns trigger language plpgsql as $$
      begin
        delete from service_bookings where appointment_id = old.appointment_id and service_type_id = old.service_type_id;
        return null;
      end $$`.execute(db);
    await sql`create trigger service_bookings_unlink after delete on appointment_service_types
      for each row execute function service_bookings_unlink()`.execute(db);
    await sql`create function service_bookings_follow() returns trigger language plpgsql as $$
      begin
        update service_bookings set start_time = new.start_time, end_time = new.end_time, status = new.status
         where appointment_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger service_bookings_follow after update of start_time, end_time, status on appointments
      for each row when (old.start_time is distinct from new.start_time or old.end_time is distinct from new.end_time
        or old.status is distinct from new.status)
      execute function service_bookings_follow()`.execute(db);
    return;
  }
  await sql`create trigger service_bookings_link after insert on appointment_service_types begin
      insert or replace into service_bookings (appointment_id, service_type_id, start_time, end_time, status)
        select a.id, new.service_type_id, a.start_time, a.end_time, a.status from appointments a where a.id = new.appointment_id;
    end`.execute(db);
  await sql`create trigger service_bookings_unlink after delete on appointment_service_types begin
      delete from service_bookings where appointment_id = old.appointment_id and service_type_id = old.service_type_id;
    end`.execute(db);
  await sql`create trigger service_bookings_follow after update of start_time, end_time, status on appointments
    when old.start_time is not new.start_time or old.end_time is not new.end_time or old.status is not new.status begin
      update service_bookings set start_time = new.start_time, end_time = new.end_time, status = new.status
       where appointment_id = new.id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists service_bookings_follow on appointments`.execute(db);
    await sql`drop trigger if exists service_bookings_unlink on appointment_service_types`.execute(db);
    await sql`drop trigger if exists service_bookings_link on appointment_service_types`.execute(db);
    for (const f of ['service_bookings_follow', 'service_bookings_unlink', 'service_bookings_link']) {
      await sql`drop function if exists ${sql.raw(f)}()`.execute(db);
    }
  } else {
    for (const t of ['service_bookings_follow', 'service_bookings_unlink', 'service_bookings_link']) {
      await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
    }
  }
  await db.schema.dropTable('service_bookings').ifExists().execute();
}
