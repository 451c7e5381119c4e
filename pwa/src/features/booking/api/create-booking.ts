// POST /appointments from the public booking form (DECISIONS.md sections 4 and 5).
import { client, rpc } from '../../../lib/rpc.ts';

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
export function createBooking(input: BookingInput, idempotencyKey: string) {
  return rpc(client.appointments.$post({ json: input, header: { 'idempotency-key': idempotencyKey } }));
}
