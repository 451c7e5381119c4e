// A booking moved its company's availability generation twice: once for the appointment's row and
// once for its service link, each a trigger at commit on PostgreSQL running its function and an
// update of the same counter row (docs/benchmarks.md, "Session 39": about 5% of PostgreSQL's work
// for a booking). The link needs no trigger of its own: the appointment's `service_ids`, the row's
// copy of its services, is kept exact by migration 059's triggers whenever a link is added, removed
// or moved, so the appointment's trigger watching that column too sees every change of services. A
// new appointment is written with its copy already right, so its links change nothing more and the
// booking moves the counter once (docs/decisions/28-availability-generation.md, "Session 40").
import type { Kysely } from 'kysely';
import { AVAILABILITY } from './2026-11-25-052-availability-generation.ts';
import { APPOINTMENT_WATCH, createWatchTriggers, dropWatchTriggers } from './generation-triggers.ts';

const [APPOINTMENTS, LINKS] = APPOINTMENT_WATCH;
const APPOINTMENTS_WITH_SERVICES = { ...APPOINTMENTS, columns: [...APPOINTMENTS.columns, 'service_ids'] };

export async function up(db: Kysely<any>): Promise<void> {
  await dropWatchTriggers(db, AVAILABILITY, LINKS);
  await dropWatchTriggers(db, AVAILABILITY, APPOINTMENTS);
  await createWatchTriggers(db, AVAILABILITY, APPOINTMENTS_WITH_SERVICES);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropWatchTriggers(db, AVAILABILITY, APPOINTMENTS_WITH_SERVICES);
  await createWatchTriggers(db, AVAILABILITY, APPOINTMENTS);
  await createWatchTriggers(db, AVAILABILITY, LINKS);
}
