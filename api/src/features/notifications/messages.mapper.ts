// An outbox row as the admins' list shows it: the addressing and the state, never body or links.
import type { CompanyMessageRow } from './outbox.repository.ts';
import type { OutboxMessageDto } from './messages.schema.ts';

export function toMessageDto(r: CompanyMessageRow): OutboxMessageDto {
  return {
    id: r.id,
    kind: r.kind,
    channel: r.channel,
    to: r.to_address,
    state: r.state,
    due_at: r.due_at,
    sent_at: r.sent_at,
    attempts: r.attempts,
    last_error: r.last_error,
    appointment_id: r.appointment_id,
  };
}
