// DELETE /appointments/{id} (staff only), checked with If-Match like an update.
import { api } from '../../../lib/api-client.ts';
import { ifMatch } from '../types.ts';

export function deleteAppointment(id: number, version: number, idempotencyKey?: string): Promise<void> {
  const headers: Record<string, string> = { 'If-Match': ifMatch(version) };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  return api.delete<void>(`/appointments/${id}`, { headers });
}
