// The health feature's reads: the outbox by channel and state, for the metrics.
import type { DbOrTx } from '@bookwell/db';
import type { OutboxCount } from '../../lib/metrics.ts';

export async function outboxCounts(db: DbOrTx): Promise<OutboxCount[]> {
  const rows = await db
    .selectFrom('outbox_messages')
    .select((eb) => ['channel', 'state', eb.fn.countAll<number | string>().as('count')])
    .groupBy(['channel', 'state'])
    .execute();
  return rows.map((r) => ({ channel: r.channel, state: r.state, count: Number(r.count) }));
}
