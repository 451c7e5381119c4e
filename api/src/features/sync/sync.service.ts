// The offline calendar's change feed (docs/decisions/08-offline-pwa.md): every appointment change of the
// caller's company after a cursor, cancellations as upserts and deletions as tombstones.
//
// Cursors are opaque strings to clients:
// - '<n>': the id of the last sync_changes row the client has applied. Ids of one company commit in
//   order (they are taken under the company lock, see lockCompanyForBooking), so nothing below n can
//   still appear later.
// - 'snapshot:<n>:<id>': paging through the first full copy. A call without `since` notes the latest
//   change id n first, then lists existing appointments by id; when the copy is complete the cursor
//   becomes '<n>', and every change made while the client was copying is replayed from there
//   (applying an upsert twice is harmless).
import type { DbOrTx } from '@bookwell/db';
import { actingCompanyId } from '../../lib/authorize.ts';
import type { Actor } from '../../lib/context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { findBookingCompany } from '../availability/availability.repository.ts';
import { appointmentViewsByIds, changesAfter, latestChangeId, listAppointmentViews } from '../appointments/appointment.repository.ts';
import { toAppointmentDto } from '../appointments/appointment.mapper.ts';
import type { AppointmentDto } from '../appointments/appointment.schema.ts';

export const SYNC_PAGE_SIZE = 500;

type Change = { op: 'upsert'; appointment: AppointmentDto } | { op: 'delete'; id: number };

type Cursor = { kind: 'snapshot'; changeId: number; afterId: number } | { kind: 'changes'; changeId: number };

function parseCursor(since: string | undefined): Cursor | null {
  if (since === undefined || since === '') return null;
  let m = /^(\d{1,15})$/.exec(since);
  if (m) return { kind: 'changes', changeId: Number(m[1]) };
  m = /^snapshot:(\d{1,15}):(\d{1,15})$/.exec(since);
  if (m) return { kind: 'snapshot', changeId: Number(m[1]), afterId: Number(m[2]) };
  throw badRequest('since is not a valid cursor', [{ path: 'since', message: 'since must be a cursor returned by this endpoint' }]);
}

/** One page of the change feed of the caller's company after `since` (see the cursors above). */
export async function appointmentChanges(
  db: DbOrTx,
  actor: Actor,
  q: { since?: string; company_id?: number },
): Promise<{ changes: Change[]; cursor: string; has_more: boolean }> {
  const companyId = actingCompanyId(actor, q.company_id);
  const company = await findBookingCompany(db, companyId);
  if (!company) throw notFound('Company not found');
  let cursor = parseCursor(q.since);

  if (cursor === null || cursor.kind === 'snapshot') {
    // Read the change position before the rows: a change racing this read is then replayed, never lost.
    const changeId = cursor?.changeId ?? (await latestChangeId(db, companyId));
    const afterId = cursor?.kind === 'snapshot' ? cursor.afterId : 0;
    const page = await listAppointmentViews(db, {
      companyId,
      afterId,
      limit: SYNC_PAGE_SIZE + 1,
      longestMinutes: company.longest_appointment_minutes,
    });
    const hasMore = page.length > SYNC_PAGE_SIZE;
    const rows = page.slice(0, SYNC_PAGE_SIZE);
    const changes: Change[] = rows.map((v) => ({ op: 'upsert', appointment: toAppointmentDto(v, { staff: true }) }));
    const next = hasMore ? `snapshot:${changeId}:${rows[rows.length - 1].id}` : String(changeId);
    return { changes, cursor: next, has_more: hasMore };
  }

  const rows = await changesAfter(db, companyId, cursor.changeId, SYNC_PAGE_SIZE + 1);
  const hasMore = rows.length > SYNC_PAGE_SIZE;
  const page = rows.slice(0, SYNC_PAGE_SIZE);
  // Several changes of one appointment in a page collapse into its latest state, at its last position.
  const last = new Map<number, { id: number; op: 'upsert' | 'delete' }>();
  for (const r of page) {
    last.delete(r.appointment_id);
    last.set(r.appointment_id, { id: r.id, op: r.op });
  }
  const upsertIds = [...last].filter(([, v]) => v.op === 'upsert').map(([appointmentId]) => appointmentId);
  const views = new Map((await appointmentViewsByIds(db, upsertIds)).map((v) => [v.id, v]));
  const changes: Change[] = [];
  for (const [appointmentId, { op }] of last) {
    const view = op === 'upsert' ? views.get(appointmentId) : undefined;
    // An upsert whose appointment is gone was deleted after this page: its tombstone is the truth.
    changes.push(view ? { op: 'upsert', appointment: toAppointmentDto(view, { staff: true }) } : { op: 'delete', id: appointmentId });
  }
  cursor = { kind: 'changes', changeId: page.length ? page[page.length - 1].id : cursor.changeId };
  return { changes, cursor: String(cursor.changeId), has_more: hasMore };
}
