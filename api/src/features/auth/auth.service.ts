// Sign-up, sign-in and every password change: the rules behind the auth calls, on plain values.
import type { UserRow } from '@bookwell/db';
import type { AppDeps } from '../../lib/context.ts';
import { hashPassword, issueToken, verifyPassword } from '../../lib/auth.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { uniqueOr } from '../../lib/db-errors.ts';
import { clearHits, consume, enforceLimit, rateLimited, recordHit, retryAfterSeconds } from '../../lib/rate-limit.ts';
import { createCompany, findCompanyBySlug } from '../companies/company.repository.ts';
import { consumeToken, retireUserTokens } from '../password-tokens/password-token.repository.ts';
import { findUsableToken, sendPasswordLink } from '../password-tokens/password-token.service.ts';
import type { AuditContext } from '../../lib/audit-context.ts';
import { createdChanges, pickFields, recordAudit, USER_AUDIT_FIELDS } from '../audit/audit.repository.ts';
import {
  findByCompanyEmail,
  findLatestPasswordless,
  findLoginByEmail,
  findUser,
  insertUser,
  loginEmailTaken,
  setPassword,
} from '../users/user.repository.ts';

export type AuthDeps = Pick<AppDeps, 'db' | 'config' | 'now' | 'jwtKey' | 'nudgeOutbox'>;

const LOGIN_WINDOW_MS = 15 * 60_000;
const EMAIL_EXISTS = 'Email already exists';
const INVALID_LOGIN = 'Invalid email or password';
const INVALID_TOKEN = 'Invalid or expired reset token';
// Two sign-ups racing for one email, or for one slug: the loser gets a clear answer.
const emailExists = () => badRequest(EMAIL_EXISTS);

async function limitPublicCalls(deps: AuthDeps, bucket: 'public' | 'reset', clientIp: string, at: Date): Promise<void> {
  await enforceLimit(deps.db, {
    bucket,
    key: clientIp,
    max: deps.config.RATE_LIMIT_PUBLIC,
    windowMs: 60_000,
    now: at,
    message: 'Too many requests. Please wait a minute and try again.',
  });
}

export interface Registration {
  name: string;
  email: string;
  password: string;
  role: 'admin' | 'customer';
  company_name?: string;
  company_slug?: string;
  timezone?: string;
}

/**
 * A new company and its admin, or a customer account of an existing company. A customer already
 * known from a booking (a password-less record) gets a set-password email instead: `invited`.
 */
export async function register(
  deps: AuthDeps,
  clientIp: string,
  body: Registration,
  who: AuditContext,
): Promise<{ token: string } | { invited: true }> {
  const { db, config, now, jwtKey, nudgeOutbox } = deps;
  const at = now();
  await limitPublicCalls(deps, 'public', clientIp, at);
  const existingLogin = await loginEmailTaken(db, body.email);

  if (body.role === 'customer') {
    const company = await findCompanyBySlug(db, body.company_slug!);
    if (!company) throw badRequest('Company not found');
    const existing = await findByCompanyEmail(db, company.id, body.email);
    if (existingLogin) throw badRequest(EMAIL_EXISTS);
    if (existing) {
      if (existing.role !== 'customer') throw badRequest(EMAIL_EXISTS);
      // Whoever types an email must prove they own it before it gets a password (docs/decisions/04-customers-and-anonymous-booking.md).
      await db.transaction().execute((trx) =>
        sendPasswordLink(trx, {
          user: existing,
          purpose: 'invite',
          appUrl: config.APP_URL,
          companyName: company.name,
          now: at,
          reason: 'sign-up',
        }),
      );
      nudgeOutbox();
      return { invited: true };
    }
    const password_hash = await hashPassword(body.password);
    const user = await uniqueOr(
      () =>
        db.transaction().execute(async (trx) => {
          const created = await insertUser(
            trx,
            { company_id: company.id, name: body.name, email: body.email, role: 'customer', password_hash },
            at,
          );
          await recordAudit(
            trx,
            { ...who, actor_user_id: created.id, actor_role: 'customer' },
            {
              company_id: company.id,
              action: 'register',
              entity: 'user',
              entity_id: created.id,
              changes: createdChanges(pickFields(created, USER_AUDIT_FIELDS)),
            },
          );
          return created;
        }),
      emailExists,
    );
    return { token: await issueToken(jwtKey, user, at) };
  }

  if (existingLogin) throw badRequest(EMAIL_EXISTS);
  // Hash before the transaction: argon2 is slow and SQLite has one connection.
  const password_hash = await hashPassword(body.password);
  const user = await uniqueOr(
    () =>
      db.transaction().execute(async (trx) => {
        const company = await createCompany(trx, { name: body.company_name!, email: body.email, timezone: body.timezone }, at);
        const admin = await insertUser(
          trx,
          { company_id: company.id, name: body.name, email: body.email, role: 'admin', password_hash },
          at,
        );
        const by = { ...who, actor_user_id: admin.id, actor_role: 'admin' };
        await recordAudit(trx, by, {
          company_id: company.id,
          action: 'create',
          entity: 'company',
          entity_id: company.id,
          changes: createdChanges(pickFields(company, ['name', 'slug', 'email', 'timezone'])),
        });
        await recordAudit(trx, by, {
          company_id: company.id,
          action: 'register',
          entity: 'user',
          entity_id: admin.id,
          changes: createdChanges(pickFields(admin, USER_AUDIT_FIELDS)),
        });
        return admin;
      }),
    emailExists,
  );
  return { token: await issueToken(jwtKey, user, at) };
}

/** A session token for a right email and password; failures are counted per email-and-IP pair. */
export async function login(deps: AuthDeps, clientIp: string, email: string, password: string, who: AuditContext): Promise<string> {
  const { db, config, now, jwtKey } = deps;
  const at = now();
  // Per email-and-IP pair, never per email alone: nobody can lock an owner out from elsewhere.
  const key = `${email}|${clientIp}`;
  // Each attempt first takes a place atomically (docs/decisions/29-input-rate-limits-request-ids.md),
  // so parallel guesses cannot all pass one count; a success frees the places again, so what is
  // limited is failures since the last success.
  if (!(await consume(db, 'login-attempt', key, config.RATE_LIMIT_LOGIN, LOGIN_WINDOW_MS, at))) {
    throw rateLimited(
      (wait) => `Too many failed sign-in attempts. Please try again in ${wait}.`,
      await retryAfterSeconds(db, 'login-attempt', key, LOGIN_WINDOW_MS, at),
    );
  }
  const user = await findLoginByEmail(db, email);
  const ok = await verifyPassword(user?.password_hash ?? null, password);
  if (!user || !ok) {
    // The audit entry (docs/decisions/31-audit-log.md): the user's company sees it; an unknown
    // email has no company, so only global_admin does. The typed email is kept, never the password.
    await db.transaction().execute(async (trx) => {
      await recordHit(trx, 'login', key, at);
      await recordAudit(trx, who, {
        company_id: user?.company_id ?? null,
        action: 'login_failed',
        entity: 'user',
        entity_id: user?.id ?? null,
        changes: { email: { new: email } },
      });
    });
    throw badRequest(INVALID_LOGIN);
  }
  await clearHits(db, 'login', key);
  await clearHits(db, 'login-attempt', key);
  return issueToken(jwtKey, user, at);
}

export async function currentUser(db: AuthDeps['db'], userId: number): Promise<UserRow> {
  const user = await findUser(db, userId);
  if (!user) throw new Error(`signed-in user ${userId} has no row`);
  return user;
}

/** Changes the caller's password; older tokens stop working and the fresh token is returned. */
export async function changePassword(
  deps: AuthDeps,
  userId: number,
  currentPassword: string,
  newPassword: string,
  who: AuditContext,
): Promise<string> {
  const { db, now, jwtKey } = deps;
  if (currentPassword === newPassword) throw badRequest('New password must be different from current password.');
  const user = await currentUser(db, userId);
  if (!(await verifyPassword(user.password_hash, currentPassword))) throw badRequest('Current password is incorrect.');
  const password_hash = await hashPassword(newPassword);
  const at = now();
  const updated = await db.transaction().execute(async (trx) => {
    const row = await setPassword(trx, user.id, password_hash, at, user.token_version);
    // That it happened, never the password or its hash.
    if (row) await recordAudit(trx, who, { company_id: row.company_id, action: 'change_password', entity: 'user', entity_id: row.id });
    return row;
  });
  if (!updated) throw new AppError('conflict', 'Your account changed meanwhile. Please sign in again.', { status: 409 });
  return issueToken(jwtKey, updated, at);
}

/** Emails a reset link when the address signs in here; says nothing either way. */
export async function requestPasswordReset(deps: AuthDeps, clientIp: string, email: string): Promise<void> {
  const { db, config, now, nudgeOutbox } = deps;
  const at = now();
  await limitPublicCalls(deps, 'reset', clientIp, at);
  const user = await findLoginByEmail(db, email);
  if (user) {
    await db.transaction().execute((trx) => sendPasswordLink(trx, { user, purpose: 'reset', appUrl: config.APP_URL, now: at }));
    nudgeOutbox();
    return;
  }
  // Someone who booked without an account, or was added by staff and lost their invitation, has no
  // password to reset: the link sets their first one, as Sign Up with that email does
  // (docs/decisions/04-customers-and-anonymous-booking.md). The answer is the same either way.
  const guest = await findLatestPasswordless(db, email);
  if (guest) {
    await db.transaction().execute((trx) =>
      sendPasswordLink(trx, {
        user: guest,
        purpose: 'reset',
        appUrl: config.APP_URL,
        companyName: guest.company_name,
        now: at,
        reason: 'first-password',
      }),
    );
    nudgeOutbox();
  }
}

export async function assertUsableToken(deps: Pick<AuthDeps, 'db' | 'now'>, token: string | undefined): Promise<void> {
  if (!token || !(await findUsableToken(deps.db, token, deps.now()))) throw badRequest(INVALID_TOKEN);
}

/** Sets a password with a reset or invitation token (single use, even under races). */
export async function confirmPasswordReset(deps: AuthDeps, token: string, newPassword: string, who: AuditContext): Promise<void> {
  const { db, now, nudgeOutbox } = deps;
  const at = now();
  const found = await findUsableToken(db, token, at);
  if (!found) throw badRequest(INVALID_TOKEN);
  const password_hash = await hashPassword(newPassword);
  await uniqueOr(
    () =>
      db.transaction().execute(async (trx) => {
        if (!(await consumeToken(trx, found.id, at))) throw badRequest(INVALID_TOKEN);
        const row = await setPassword(trx, found.user_id, password_hash, at);
        if (row) {
          const by = { ...who, actor_user_id: row.id, actor_role: row.role };
          await recordAudit(trx, by, { company_id: row.company_id, action: 'set_password', entity: 'user', entity_id: row.id });
        }
        // Every other outstanding link of this user dies with this one.
        await retireUserTokens(trx, found.user_id, at);
      }),
    emailExists,
  );
  nudgeOutbox();
}
