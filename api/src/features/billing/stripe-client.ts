// The Stripe connection: one client per configuration, pointed at STRIPE_API_BASE when set (tests use a local fake).
import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { PaidPlan } from './subscription.rules.ts';

export const NOT_CONFIGURED = 'Payments are not configured';
export const PLAN_NOT_CONFIGURED = 'Invalid plan selected or product ID not configured.';

const clients = new WeakMap<Config, Stripe>();

export function notConfigured(): AppError {
  return new AppError('not_configured', NOT_CONFIGURED);
}

/** The client for this configuration, or null when STRIPE_SECRET_KEY is unset. */
export function stripeClient(config: Config): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  let client = clients.get(config);
  if (!client) {
    // No apiVersion pinned: the library's own version is the one its types describe, and a local
    // fake serves whatever it is sent.
    client = new Stripe(config.STRIPE_SECRET_KEY, {
      ...apiBaseOptions(config.STRIPE_API_BASE),
      // The PWA gives up after 10 s; a checkout makes at most two calls.
      timeout: 4_000,
      maxNetworkRetries: 1,
      appInfo: { name: 'Bookwell' },
    });
    clients.set(config, client);
  }
  return client;
}

function apiBaseOptions(base: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    // Node's http.request wants an IPv6 host without its brackets.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/** The configured price of each paid plan (docs/decisions/06-subscriptions.md). */
export function planPrices(config: Config): Record<PaidPlan, string | undefined> {
  return { standard: config.STRIPE_PRICE_STANDARD, enterprise: config.STRIPE_PRICE_ENTERPRISE };
}

export function priceFor(config: Config, plan: PaidPlan): string {
  const price = planPrices(config)[plan];
  if (!price) throw badRequest(PLAN_NOT_CONFIGURED);
  return price;
}

/**
 * A failed call to Stripe: a 502 the caller may retry (and, for webhooks, one Stripe retries by
 * itself, since the event is not recorded). The provider's message goes to the logs only.
 */
export function paymentProviderError(err: unknown): AppError {
  const internal = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new AppError('internal', 'The payment provider could not be reached. Please try again.', { status: 502, internal });
}

/** Stripe's answer for an id it does not know (a deleted customer, a mistyped price). */
export function isMissingResource(err: unknown, param?: string): boolean {
  if (!(err instanceof Stripe.errors.StripeError)) return false;
  if (err.code !== 'resource_missing') return false;
  return param === undefined || (err.param ?? '').startsWith(param);
}
