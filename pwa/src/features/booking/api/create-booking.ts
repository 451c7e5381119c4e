// POST /appointments from the public booking form (DECISIONS.md sections 4 and 5).
import { api } from '../../../lib/api-client.ts';
import type { Appointment } from '../../../lib/api-types.ts';

export interface BookingInput {
  company_id: number;
  service_type_ids: number[];
  start_time: string;
  end_time: string;
  description: string;
  employee_id?: number;
  /** Only for a signed-in customer of this company. */
  user_id?: number;
  customer: { name: string; email: string; phone: string };
  sms_consent: boolean;
}

/** `idempotencyKey` makes a retried submission (after a dropped connection) book only once. */
export function createBooking(input: BookingInput, idempotencyKey: string): Promise<Appointment> {
  return api.post<Appointment>('/appointments', input, { headers: { 'Idempotency-Key': idempotencyKey } });
}
