// PUT /appointments/{id}: a checked, partial update. If-Match carries the version the user saw;
// the server answers 412 with the current appointment when someone changed it meanwhile, and
// 409 when the new time is taken (DECISIONS.md section 5).
import { api } from '../../../lib/api-client.ts';
import { ifMatch, type AppointmentStatus, type CalendarAppointment } from '../types.ts';

export interface AppointmentChanges {
  user_id?: number;
  employee_id?: number | null;
  start_time?: string;
  end_time?: string;
  description?: string | null;
  appointment_duration_option_id?: number | null;
  service_type_ids?: number[];
  status?: AppointmentStatus;
}

export function updateAppointment(
  id: number,
  version: number,
  changes: AppointmentChanges,
  idempotencyKey?: string,
): Promise<CalendarAppointment> {
  const headers: Record<string, string> = { 'If-Match': ifMatch(version) };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  return api.put<CalendarAppointment>(`/appointments/${id}`, changes, { headers });
}
