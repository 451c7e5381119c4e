// POST /appointments from the appointment modal. The Idempotency-Key makes a retried submission
// (after a dropped connection) create the appointment only once (DECISIONS.md section 5).
import { api } from '../../../lib/api-client.ts';
import type { CalendarAppointment } from '../types.ts';

export interface AppointmentInput {
  company_id: number;
  user_id: number;
  employee_id: number | null;
  start_time: string;
  end_time: string;
  description: string | null;
  appointment_duration_option_id: number | null;
  service_type_ids: number[];
}

export function createAppointment(input: AppointmentInput, idempotencyKey: string): Promise<CalendarAppointment> {
  const body: Record<string, unknown> = { ...input };
  if (input.employee_id === null) delete body.employee_id;
  if (input.appointment_duration_option_id === null) delete body.appointment_duration_option_id;
  return api.post<CalendarAppointment>('/appointments', body, { headers: { 'Idempotency-Key': idempotencyKey } });
}
