// The outbox for a company's admins (issue 12, docs/decisions/10-reminders-and-sms.md): list what was sent, is waiting or
// failed (with the reason), and put a failed or dead message back in the queue.
import type { DbOrTx } from '@bookwell/db';
import type { Actor } from '../../lib/context.ts';
import { assertCompanyAccess } from '../../lib/authorize.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { companyExists, findCompanyMessage, listCompanyMessages, requeueMessage, smsOptedOut } from './outbox.repository.ts';
import { toMessageDto } from './messages.mapper.ts';
import { ERASED_ADDRESS } from '../privacy/privacy.repository.ts';
import { DEFAULT_MESSAGE_LIMIT, type MessageKind, type OutboxMessageDto } from './messages.schema.ts';

async function assertCompany(db: DbOrTx, actor: Actor, companyId: number): Promise<void> {
  assertCompanyAccess(actor, companyId);
  if (!(await companyExists(db, companyId))) throw notFound('Company not found');
}

export async function listMessages(
  db: DbOrTx,
  actor: Actor,
  companyId: number,
  q: { state?: OutboxMessageDto['state']; kind?: MessageKind; appointment_id?: number; limit?: number },
): Promise<OutboxMessageDto[]> {
  await assertCompany(db, actor, companyId);
  const rows = await listCompanyMessages(db, companyId, {
    state: q.state,
    kind: q.kind,
    appointmentId: q.appointment_id,
    limit: q.limit ?? DEFAULT_MESSAGE_LIMIT,
  });
  return rows.map(toMessageDto);
}

/**
 * Puts a failed or dead message back to pending, due now (the caller nudges the dispatcher after).
 * Any other state answers 409: a pending or sending message is already on its way, a sent one went
 * out, a cancelled one is no longer wanted; so does a text to someone who opted out of SMS.
 */
export async function retryMessage(db: DbOrTx, actor: Actor, companyId: number, messageId: number, now: Date): Promise<OutboxMessageDto> {
  await assertCompany(db, actor, companyId);
  const before = await findCompanyMessage(db, companyId, messageId);
  if (!before) throw notFound('Message not found');
  // Once the recipient replied STOP, no text goes to them again, not even by hand (docs/decisions/10-reminders-and-sms.md).
  if (before.channel === 'sms' && (await smsOptedOut(db, companyId, before.to_address))) {
    throw new AppError('conflict', 'The recipient replied STOP to our texts: no SMS can be sent to them again', {
      extra: { state: before.state },
    });
  }
  // An erasure emptied it: there is no one to send it to, nor anything to send (docs/decisions/32-privacy-and-operations.md).
  if (before.to_address === ERASED_ADDRESS) {
    throw new AppError('conflict', "The recipient's data was erased: this message cannot be sent", { extra: { state: before.state } });
  }
  const requeued = await requeueMessage(db, companyId, messageId, now);
  if (!requeued) {
    const current = (await findCompanyMessage(db, companyId, messageId)) ?? before;
    throw new AppError('conflict', `Only a failed or dead message can be retried; this one is ${current.state}`, {
      extra: { state: current.state },
    });
  }
  return toMessageDto(requeued);
}
