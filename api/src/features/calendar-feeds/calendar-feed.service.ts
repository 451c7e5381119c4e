// Calendar feeds (docs/decisions/07-notifications-and-calendar-sync.md, docs/decisions/24-calendar-feeds.md): a secret iCalendar URL per
// staff member and per company, shown to its owners, regenerated on request, and served to
// calendar apps without an account (the token is the secret).
import crypto from 'node:crypto';
import ical, { ICalEventStatus } from 'ical-generator';
import { isStaffRole, type Database } from '@bookwell/db';
import type { Kysely } from 'kysely';
import type { Actor, AppDeps } from '../../lib/context.ts';
import { assertCompanyAccess } from '../../lib/authorize.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { appointmentUid } from '../notifications/appointment-emails.ts';
import {
  findFeedByHash,
  findFeedCompany,
  findFeedOf,
  findFeedOwner,
  insertFeed,
  listFeedAppointments,
  serviceNamesOf,
  updateFeedSecret,
  type FeedRow,
} from './calendar-feed.repository.ts';

export type FeedDeps = Pick<AppDeps, 'db' | 'config' | 'now' | 'jwtKey'>;

/** What a feed shows: from 60 days back to a year ahead (past enough for last month's review, and bounded). */
export const FEED_DAYS_BACK = 60;
export const FEED_DAYS_AHEAD = 366;
/** What calendar apps that honour it are asked to refetch at (REFRESH-INTERVAL / X-PUBLISHED-TTL). */
const FEED_TTL_SECONDS = 3600;
/** 'Booked' replaces customer names when the company hides them (docs/decisions/07-notifications-and-calendar-sync.md). */
export const HIDDEN_NAME = 'Booked';

const TOKEN_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

/** The URL token: an HMAC of the row's nonce under the server key, so a copy of the database alone cannot rebuild it (when the key comes from JWT_SECRET). */
function tokenOf(jwtKey: Uint8Array, nonce: string): string {
  return crypto.createHmac('sha256', jwtKey).update(`calendar-feed:${nonce}`).digest('base64url');
}

function hashOf(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function freshSecret(jwtKey: Uint8Array): { nonce: string; token_hash: string; token: string } {
  const nonce = crypto.randomBytes(32).toString('base64url');
  const token = tokenOf(jwtKey, nonce);
  return { nonce, token, token_hash: hashOf(token) };
}

export function feedUrl(config: FeedDeps['config'], token: string): string {
  const api = config.PUBLIC_API_URL.replace(/\/$/, '');
  return new URL(`${api}/calendar/${token}.ics`, `${config.APP_URL}/`).toString();
}

interface Owner {
  companyId: number;
  userId: number | null;
}

/** The feed's URL, creating the feed on first use. */
async function urlOf(deps: FeedDeps, owner: Owner): Promise<{ url: string }> {
  let row: FeedRow | undefined = await findFeedOf(deps.db, owner.companyId, owner.userId);
  if (!row) {
    const secret = freshSecret(deps.jwtKey);
    try {
      row = await insertFeed(
        deps.db,
        { company_id: owner.companyId, user_id: owner.userId, nonce: secret.nonce, token_hash: secret.token_hash },
        deps.now(),
      );
    } catch (err) {
      // Two first requests at once: the other one's row won (one feed per owner, unique indexes).
      if (!isUniqueViolation(err)) throw err;
      row = await findFeedOf(deps.db, owner.companyId, owner.userId);
      if (!row) throw err;
    }
  }
  const token = tokenOf(deps.jwtKey, row.nonce);
  const hash = hashOf(token);
  // The server key changed (JWT_SECRET rotated): the old URL stopped working with it; this one takes over.
  if (hash !== row.token_hash) await updateFeedSecret(deps.db, row.id, { nonce: row.nonce, token_hash: hash });
  return { url: feedUrl(deps.config, token) };
}

/** A new token: the old URL answers 404 from now on. */
async function regenerate(deps: FeedDeps, owner: Owner): Promise<{ url: string }> {
  const secret = freshSecret(deps.jwtKey);
  const row = await findFeedOf(deps.db, owner.companyId, owner.userId);
  if (row) {
    await updateFeedSecret(deps.db, row.id, { nonce: secret.nonce, token_hash: secret.token_hash });
  } else {
    try {
      await insertFeed(
        deps.db,
        { company_id: owner.companyId, user_id: owner.userId, nonce: secret.nonce, token_hash: secret.token_hash },
        deps.now(),
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const winner = await findFeedOf(deps.db, owner.companyId, owner.userId);
      if (!winner) throw err;
      await updateFeedSecret(deps.db, winner.id, { nonce: secret.nonce, token_hash: secret.token_hash });
    }
  }
  return { url: feedUrl(deps.config, secret.token) };
}

function ownFeed(actor: Actor): Owner {
  // Staff only (the route's access); a staff member always has a company.
  if (!isStaffRole(actor.role) || actor.company_id == null) throw forbidden();
  return { companyId: actor.company_id, userId: actor.id };
}

async function companyFeedOwner(db: Kysely<Database>, actor: Actor, companyId: number): Promise<Owner> {
  assertCompanyAccess(actor, companyId);
  if (!(await findFeedCompany(db, companyId))) throw notFound('Company not found');
  return { companyId, userId: null };
}

export const myFeedUrl = (deps: FeedDeps, actor: Actor) => urlOf(deps, ownFeed(actor));
export const regenerateMyFeed = (deps: FeedDeps, actor: Actor) => regenerate(deps, ownFeed(actor));
export const companyFeedUrl = async (deps: FeedDeps, actor: Actor, companyId: number) =>
  urlOf(deps, await companyFeedOwner(deps.db, actor, companyId));
export const regenerateCompanyFeed = async (deps: FeedDeps, actor: Actor, companyId: number) =>
  regenerate(deps, await companyFeedOwner(deps.db, actor, companyId));

export interface RenderedFeed {
  body: string;
  etag: string;
  lastModified: Date;
}

/** The feed a URL token opens, or 404 for a token that is unknown, regenerated away, or whose owner left. */
export async function renderFeed(deps: FeedDeps, file: string): Promise<RenderedFeed> {
  const m = TOKEN_FILE.exec(file);
  if (!m) throw notFound('Calendar feed not found');
  const feed = await findFeedByHash(deps.db, hashOf(m[1]));
  if (!feed) throw notFound('Calendar feed not found');
  let ownerName: string | null = null;
  if (feed.user_id != null) {
    const owner = await findFeedOwner(deps.db, feed.user_id);
    // A person who left the staff (deleted, made a customer, moved) no longer has a feed.
    if (!owner || owner.archived_at || !isStaffRole(owner.role) || owner.company_id !== feed.company_id) {
      throw notFound('Calendar feed not found');
    }
    ownerName = owner.name;
  }
  const company = await findFeedCompany(deps.db, feed.company_id);
  if (!company) throw notFound('Calendar feed not found');

  const now = deps.now();
  const from = new Date(now.getTime() - FEED_DAYS_BACK * 86_400_000);
  const to = new Date(now.getTime() + FEED_DAYS_AHEAD * 86_400_000);
  const rows = await listFeedAppointments(deps.db, feed.company_id, feed.user_id, from, to);
  const shown = rows.filter((r) => r.status !== 'cancelled');
  const services = await serviceNamesOf(
    deps.db,
    shown.map((r) => r.id),
  );
  const hide = company.hide_customer_names_in_feeds === 1;

  const cal = ical({
    prodId: { company: 'Bookwell', product: 'Bookwell feed', language: 'EN' },
    name: ownerName ? `${ownerName} (${company.name})` : company.name,
    ttl: FEED_TTL_SECONDS,
  });
  for (const r of shown) {
    const serviceText = (services.get(r.id) ?? []).join(', ') || 'Appointment';
    const customer = r.customer_user_name ?? r.customer_name ?? 'Customer';
    cal.createEvent({
      id: appointmentUid(r.id, deps.config.APP_URL),
      sequence: r.version,
      // The appointment's last change, not the request time: the same data gives the same bytes (and ETag).
      stamp: new Date(r.updated_at),
      start: new Date(r.start_time),
      end: new Date(r.end_time),
      summary: hide ? HIDDEN_NAME : `${serviceText} - ${customer}`,
      // Notes may name the customer too: hidden with the names.
      description: hide
        ? undefined
        : [r.description, feed.user_id == null && r.employee_name ? `With ${r.employee_name}` : null].filter(Boolean).join('\n') ||
          undefined,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  const body = cal.toString();
  let last = new Date(company.updated_at).getTime();
  for (const r of rows) last = Math.max(last, new Date(r.updated_at).getTime());
  return {
    body,
    etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
    lastModified: new Date(Math.floor(last / 1000) * 1000),
  };
}

/** Whether an If-None-Match header names this ETag (weak or strong, one of a list, or *). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim().replace(/^W\//, '');
    return v === '*' || v === etag;
  });
}
