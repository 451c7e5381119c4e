// A company's subscription state from subscription_expires_at (docs/product/04-states.md): no_subscription,
// expired, expiring_soon (0 to 7 days left) or active, with the days left counted in calendar days
// and floored at 0. Shown on Company settings and on /upgrade.
import type { ReactNode } from 'react';
import { PLANS } from './plans.ts';
import './subscription-status.css';

export type SubscriptionState = 'no_subscription' | 'expired' | 'expiring_soon' | 'active';

export const EXPIRING_SOON_DAYS = 7;

export interface SubscriptionStatus {
  state: SubscriptionState;
  daysRemaining: number;
  expiresAt: Date | null;
}

const DAY_MS = 86_400_000;

/** Whole calendar days from `from`'s date to `to`'s date, in the reader's time zone. */
function calendarDaysBetween(from: Date, to: Date): number {
  const a = Date.UTC(from.getFullYear(), from.getMonth(), from.getDate());
  const b = Date.UTC(to.getFullYear(), to.getMonth(), to.getDate());
  return Math.round((b - a) / DAY_MS);
}

export function subscriptionStatus(expiresAt: string | null | undefined, now: Date = new Date()): SubscriptionStatus {
  if (!expiresAt) return { state: 'no_subscription', daysRemaining: 0, expiresAt: null };
  const end = new Date(expiresAt);
  if (Number.isNaN(end.getTime())) return { state: 'no_subscription', daysRemaining: 0, expiresAt: null };
  const daysRemaining = Math.max(0, calendarDaysBetween(now, end));
  // Past its instant, or on a day before today: over (the server stops public bookings then too).
  if (end.getTime() <= now.getTime()) return { state: 'expired', daysRemaining: 0, expiresAt: end };
  return { state: daysRemaining <= EXPIRING_SOON_DAYS ? 'expiring_soon' : 'active', daysRemaining, expiresAt: end };
}

export const PLAN_NAMES: Record<string, string> = Object.fromEntries(PLANS.map((p) => [p.id, p.name]));

const formatDate = (d: Date) => d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

const daysText = (n: number) => (n === 0 ? 'today' : n === 1 ? 'in 1 day' : `in ${n} days`);

/** The status block: what the plan is, until when, and what to do about it. */
export function SubscriptionStatusBlock({
  expiresAt,
  plan,
  action,
  now,
}: {
  expiresAt: string | null | undefined;
  plan?: string | null;
  /** The link or note shown under the status (e.g. a link to /pricing). */
  action?: ReactNode;
  now?: Date;
}) {
  const s = subscriptionStatus(expiresAt, now);
  const planName = plan ? (PLAN_NAMES[plan] ?? plan) : null;
  let title: string;
  let detail: string;
  switch (s.state) {
    case 'no_subscription':
      title = 'No subscription';
      detail = 'Your company has no subscription end date on file.';
      break;
    case 'expired':
      title = 'Subscription expired';
      detail = `It ended on ${formatDate(s.expiresAt!)}. Your data is safe, but the booking page is not taking online bookings until you renew.`;
      break;
    case 'expiring_soon':
      title = s.daysRemaining === 0 ? 'Subscription expires today' : 'Subscription expiring soon';
      detail = `It ends ${daysText(s.daysRemaining)}, on ${formatDate(s.expiresAt!)}. Renew to keep taking online bookings.`;
      break;
    default:
      title = 'Subscription active';
      detail = `Renews or ends on ${formatDate(s.expiresAt!)}.`;
  }
  return (
    <div className={`sub-status sub-${s.state}`} data-state={s.state}>
      <div className="sub-status-head">
        <span className="sub-dot" aria-hidden="true" />
        <strong className="sub-title">{title}</strong>
        {planName && <span className="sub-plan">{planName}</span>}
      </div>
      {s.state !== 'no_subscription' && s.state !== 'expired' && (
        <p className="sub-days">
          <span className="sub-days-n">{s.daysRemaining}</span> {s.daysRemaining === 1 ? 'day' : 'days'} remaining
        </p>
      )}
      <p className="sub-detail">{detail}</p>
      {action && <div className="sub-action">{action}</div>}
    </div>
  );
}
