// service_bookings (migration 031) is a copy kept by triggers: a row is written only by the trigger
// on a new service link, from that link and its appointment, and removed by the trigger on the link's
// removal. Its own foreign keys checked again, in the same statement, what the link's keys had just
// checked (its appointment and its service exist, each locked against removal until commit), two
// more checks on every booking: about 5% of PostgreSQL's work for one (docs/benchmarks.md, "Session
// 40"). They go on PostgreSQL; a removed appointment, service or company still takes the copy with
// it, through the link's cascade and the link's removal trigger. SQLite's are left as they are:
// there a check is a lookup in the process, and dropping a key means rebuilding the table
// (docs/decisions/44-service-bookings-keys.md).
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table service_bookings drop constraint service_bookings_appointment_id_fkey,
    drop constraint service_bookings_service_type_id_fkey`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table service_bookings
    add constraint service_bookings_appointment_id_fkey foreign key (appointment_id) references appointments (id) on delete cascade,
    add constraint service_bookings_service_type_id_fkey foreign key (service_type_id) references service_types (id) on delete cascade`.execute(
    db,
  );
}
