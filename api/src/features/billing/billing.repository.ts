// Billing rows: a company's Stripe customer, its subscription state, and the Stripe events already applied.
import type { Transaction } from 'kysely';
import type { CompanyRow, Database, DbOrTx } from '@bookwell/db';
import { subscriptionActive } from '../companies/company.rules.ts';
import { isPaidPlan, type SubscriptionState } from './subscription.rules.ts';

/** A paid plan that Stripe still bills: such a company manages it in the billing portal. */
export function hasActivePaidSubscription(company: CompanyRow, now: Date): boolean {
  return (
    isPaidPlan(company.subscription_plan) &&
    !!company.stripe_subscription_id &&
    !!company.stripe_customer_id &&
    subscriptionActive(company, now)
  );
}

/**
 * Stores the company's Stripe customer unless another request stored one first; answers the one
 * that is stored, so two checkouts racing for a new company end up on one customer.
 */
export async function keepCustomerId(db: DbOrTx, companyId: number, customerId: string, now: Date): Promise<string> {
  await db
    .updateTable('companies')
    .set({ stripe_customer_id: customerId, updated_at: now.toISOString() })
    .where('id', '=', companyId)
    .where('stripe_customer_id', 'is', null)
    .execute();
  const row = await db.selectFrom('companies').select('stripe_customer_id').where('id', '=', companyId).executeTakeFirst();
  return row?.stripe_customer_id ?? customerId;
}

/** Replaces a customer Stripe no longer knows (deleted in the dashboard). */
export async function replaceCustomerId(db: DbOrTx, companyId: number, staleId: string, customerId: string, now: Date): Promise<void> {
  await db
    .updateTable('companies')
    .set({ stripe_customer_id: customerId, updated_at: now.toISOString() })
    .where('id', '=', companyId)
    .where('stripe_customer_id', '=', staleId)
    .execute();
}

export async function eventApplied(db: DbOrTx, eventId: string): Promise<boolean> {
  return !!(await db.selectFrom('stripe_events').select('id').where('id', '=', eventId).executeTakeFirst());
}

/**
 * Records the event inside the transaction that applies it: false when it was already recorded
 * (a replay, or the same event delivered twice at once), and then nothing else may change.
 */
export async function claimEvent(trx: Transaction<Database>, event: { id: string; type: string }, now: Date): Promise<boolean> {
  const inserted = await trx
    .insertInto('stripe_events')
    .values({ id: event.id, type: event.type, processed_at: now.toISOString() })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The company a subscription belongs to: the id we gave Stripe, else the Stripe customer. */
export async function findBillingCompany(
  db: DbOrTx,
  ref: { companyId: number | null; customerId: string | null },
): Promise<CompanyRow | undefined> {
  if (ref.companyId != null) {
    const byId = await db.selectFrom('companies').selectAll().where('id', '=', ref.companyId).executeTakeFirst();
    if (byId) return byId;
  }
  if (!ref.customerId) return undefined;
  return db.selectFrom('companies').selectAll().where('stripe_customer_id', '=', ref.customerId).orderBy('id').executeTakeFirst();
}

export interface StripeSubscriptionRef {
  subscriptionId: string;
  customerId: string | null;
}

/** Writes what Stripe says the subscription is now. Answers what changed, for the log. */
export async function applySubscriptionState(
  trx: DbOrTx,
  company: CompanyRow,
  sub: StripeSubscriptionRef,
  state: SubscriptionState,
  now: Date,
): Promise<'running' | 'ended' | 'unchanged'> {
  if (state.kind === 'pending') return 'unchanged';
  const iso = now.toISOString();
  const ids = { stripe_subscription_id: sub.subscriptionId, stripe_customer_id: sub.customerId ?? company.stripe_customer_id };
  if (state.kind === 'ended') {
    // Only the subscription the company runs on can end it: an older one ending late must not cut
    // off the current one, and one that never started (incomplete_expired) must not end a trial.
    if (company.stripe_subscription_id !== sub.subscriptionId) return 'unchanged';
    const expires = company.subscription_expires_at && company.subscription_expires_at < iso ? company.subscription_expires_at : iso;
    await trx
      .updateTable('companies')
      .set({ ...ids, subscription_expires_at: expires, updated_at: iso })
      .where('id', '=', company.id)
      .execute();
    return 'ended';
  }
  // A price we do not know (changed in the portal to one not configured here) still is a paid plan.
  const plan = state.plan ?? (isPaidPlan(company.subscription_plan) ? company.subscription_plan : 'standard');
  await trx
    .updateTable('companies')
    .set({ ...ids, subscription_plan: plan, subscription_expires_at: state.expiresAt, updated_at: iso })
    .where('id', '=', company.id)
    .execute();
  return 'running';
}
