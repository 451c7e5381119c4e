// Sign-up, sign-in, the current user and every password call (change, reset request, validate, confirm).
import { z } from '@hono/zod-openapi';
import { hashPassword, issueToken, verifyPassword } from '../../lib/auth.ts';
import { currentActor } from '../../lib/authorize.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { clearHits, consume, countHits, recordHit } from '../../lib/rate-limit.ts';
import { MessageSchema } from '../../lib/validation.ts';
import { createCompany, findCompanyBySlug } from '../companies/company.repository.ts';
import { toUserDto, UserSchema } from '../users/user.mapper.ts';
import { ChangePasswordBody, LoginBody, RegisterBody, ResetConfirmBody, ResetRequestBody, TokenSchema, ValidateQuery } from './auth.schema.ts';
import { consumeToken, findUsableToken, sendPasswordLink } from './password-tokens.ts';

const LOGIN_WINDOW_MS = 15 * 60_000;
const EMAIL_EXISTS = 'Email already exists';
const INVALID_LOGIN = 'Invalid email or password';
const INVALID_TOKEN = 'Invalid or expired reset token';

const register = defineRoute({
  method: 'post', path: '/register', access: 'public', tags: ['auth'],
  summary: 'Create a company and its admin (or, with role customer and company_slug, a customer account)',
  request: { body: jsonBody(RegisterBody) },
  responses: {
    200: jsonResponse(TokenSchema, 'Signed up; the session token'),
    202: jsonResponse(MessageSchema, 'A password-less customer record exists: a set-password email was sent'),
    409: jsonResponse(MessageSchema, 'Conflict'),
  },
});

const login = defineRoute({
  method: 'post', path: '/login', access: 'public', tags: ['auth'], summary: 'Sign in',
  request: { body: jsonBody(LoginBody) },
  responses: { 200: jsonResponse(TokenSchema, 'The session token (7 days)') },
});

const me = defineRoute({
  method: 'get', path: '/me', access: 'authenticated', tags: ['auth'], summary: 'The signed-in user',
  responses: { 200: jsonResponse(UserSchema, 'The current user') },
});

const changePassword = defineRoute({
  method: 'post', path: '/me/change-password', access: 'authenticated', tags: ['auth'],
  summary: 'Change the own password; older tokens stop working and a fresh one is returned',
  request: { body: jsonBody(ChangePasswordBody) },
  responses: { 200: jsonResponse(z.object({ message: z.string(), token: z.string() }), 'Changed') },
});

const resetRequest = defineRoute({
  method: 'post', path: '/password-reset/request', access: 'public', tags: ['auth'],
  summary: 'Email a one-hour reset link (same answer whether or not the address exists)',
  request: { body: jsonBody(ResetRequestBody) },
  responses: { 200: jsonResponse(MessageSchema, 'Accepted') },
});

const resetValidate = defineRoute({
  method: 'get', path: '/password-reset/validate', access: 'public', tags: ['auth'],
  summary: 'Whether a reset or invitation token can still be used',
  request: { query: ValidateQuery },
  responses: { 200: jsonResponse(z.object({ valid: z.literal(true) }), 'Usable') },
});

const resetConfirm = defineRoute({
  method: 'post', path: '/password-reset/confirm', access: 'public', tags: ['auth'],
  summary: 'Set a new password with a reset or invitation token (single use)',
  request: { body: jsonBody(ResetConfirmBody) },
  responses: { 200: jsonResponse(MessageSchema, 'Password set') },
});

export const authRoutes = createRouter()
  .openapi(register, async (c) => {
    const { db, config, now, jwtKey, nudgeOutbox } = c.get('deps');
    const body = c.req.valid('json');
    const at = now();
    if (!(await consume(db, 'public', c.get('clientIp'), config.RATE_LIMIT_PUBLIC, 60_000, at))) {
      throw new AppError('rate_limited', 'Too many requests. Please wait a minute and try again.');
    }
    const existingLogin = await db.selectFrom('users').select('id')
      .where('email', '=', body.email).where('password_hash', 'is not', null).executeTakeFirst();

    if (body.role === 'customer') {
      const company = await findCompanyBySlug(db, body.company_slug!);
      if (!company) throw badRequest('Company not found');
      const existing = await db.selectFrom('users').selectAll()
        .where('company_id', '=', company.id).where('email', '=', body.email).executeTakeFirst();
      if (existingLogin) throw badRequest(EMAIL_EXISTS);
      if (existing) {
        if (existing.role !== 'customer') throw badRequest(EMAIL_EXISTS);
        // Whoever types an email must prove they own it before it gets a password (DECISIONS.md section 4).
        await db.transaction().execute((trx) => sendPasswordLink(trx, {
          user: existing, purpose: 'invite', appUrl: config.APP_URL, companyName: company.name, now: at,
        }));
        nudgeOutbox();
        return c.json({ message: 'We already have your details from a booking. We sent you an email with a link to set your password.' }, 202);
      }
      const password_hash = await hashPassword(body.password);
      try {
        const user = await db.insertInto('users').values({
          company_id: company.id, name: body.name, email: body.email, phone: null, role: 'customer',
          password_hash, token_version: 0, archived_at: null, created_at: at.toISOString(), updated_at: at.toISOString(),
        }).returningAll().executeTakeFirstOrThrow();
        return c.json({ token: await issueToken(jwtKey, user, at) }, 200);
      } catch (err) {
        if (isUniqueViolation(err)) throw badRequest(EMAIL_EXISTS);
        throw err;
      }
    }

    if (existingLogin) throw badRequest(EMAIL_EXISTS);
    // Hash before the transaction: argon2 is slow and SQLite has one connection.
    const password_hash = await hashPassword(body.password);
    try {
      const user = await db.transaction().execute(async (trx) => {
        const company = await createCompany(trx, { name: body.company_name!, email: body.email, timezone: body.timezone }, at);
        return trx.insertInto('users').values({
          company_id: company.id, name: body.name, email: body.email, phone: null, role: 'admin',
          password_hash, token_version: 0, archived_at: null, created_at: at.toISOString(), updated_at: at.toISOString(),
        }).returningAll().executeTakeFirstOrThrow();
      });
      return c.json({ token: await issueToken(jwtKey, user, at) }, 200);
    } catch (err) {
      // Two sign-ups racing for one email, or for one slug: the loser gets a clear answer.
      if (isUniqueViolation(err)) throw badRequest(EMAIL_EXISTS);
      throw err;
    }
  })
  .openapi(login, async (c) => {
    const { db, config, now, jwtKey } = c.get('deps');
    const { email, password } = c.req.valid('json');
    const at = now();
    // Per email-and-IP pair, never per email alone: nobody can lock an owner out from elsewhere.
    const key = `${email}|${c.get('clientIp')}`;
    const failures = await countHits(db, 'login', key, new Date(at.getTime() - LOGIN_WINDOW_MS));
    if (failures >= config.RATE_LIMIT_LOGIN) {
      throw new AppError('rate_limited', 'Too many failed sign-in attempts. Please try again in 15 minutes.', { headers: { 'Retry-After': '900' } });
    }
    const user = await db.selectFrom('users').selectAll()
      .where('email', '=', email).where('password_hash', 'is not', null).where('archived_at', 'is', null)
      .executeTakeFirst();
    const ok = await verifyPassword(user?.password_hash ?? null, password);
    if (!user || !ok) {
      await recordHit(db, 'login', key, at);
      throw badRequest(INVALID_LOGIN);
    }
    await clearHits(db, 'login', key);
    return c.json({ token: await issueToken(jwtKey, user, at) }, 200);
  })
  .openapi(me, async (c) => {
    const actor = currentActor(c);
    const user = await c.get('deps').db.selectFrom('users').selectAll().where('id', '=', actor.id).executeTakeFirstOrThrow();
    return c.json(toUserDto(user), 200);
  })
  .openapi(changePassword, async (c) => {
    const { db, now, jwtKey } = c.get('deps');
    const actor = currentActor(c);
    const { current_password, new_password } = c.req.valid('json');
    if (current_password === new_password) throw badRequest('New password must be different from current password.');
    const user = await db.selectFrom('users').selectAll().where('id', '=', actor.id).executeTakeFirstOrThrow();
    if (!(await verifyPassword(user.password_hash, current_password))) throw badRequest('Current password is incorrect.');
    const password_hash = await hashPassword(new_password);
    const at = now();
    const updated = await db.updateTable('users')
      .set((eb) => ({ password_hash, token_version: eb('token_version', '+', 1), updated_at: at.toISOString() }))
      .where('id', '=', user.id).where('token_version', '=', user.token_version)
      .returningAll().executeTakeFirst();
    if (!updated) throw new AppError('conflict', 'Your account changed meanwhile. Please sign in again.', { status: 409 });
    return c.json({ message: 'Password changed successfully', token: await issueToken(jwtKey, updated, at) }, 200);
  })
  .openapi(resetRequest, async (c) => {
    const { db, config, now, nudgeOutbox } = c.get('deps');
    const { email_or_username: email } = c.req.valid('json');
    const at = now();
    const message = 'If an account exists for that email, a password reset link has been sent.';
    if (!(await consume(db, 'reset', c.get('clientIp'), config.RATE_LIMIT_PUBLIC, 60_000, at))) {
      throw new AppError('rate_limited', 'Too many requests. Please wait a minute and try again.');
    }
    const user = await db.selectFrom('users').select(['id', 'email', 'name', 'company_id'])
      .where('email', '=', email).where('password_hash', 'is not', null).where('archived_at', 'is', null)
      .executeTakeFirst();
    if (user) {
      await db.transaction().execute((trx) => sendPasswordLink(trx, { user, purpose: 'reset', appUrl: config.APP_URL, now: at }));
      nudgeOutbox();
    }
    return c.json({ message }, 200);
  })
  .openapi(resetValidate, async (c) => {
    const { db, now } = c.get('deps');
    const { token } = c.req.valid('query');
    c.header('Referrer-Policy', 'no-referrer');
    if (!token || !(await findUsableToken(db, token, now()))) throw badRequest(INVALID_TOKEN);
    return c.json({ valid: true as const }, 200);
  })
  .openapi(resetConfirm, async (c) => {
    const { db, now, nudgeOutbox } = c.get('deps');
    const { token, new_password } = c.req.valid('json');
    const at = now();
    const found = await findUsableToken(db, token, at);
    if (!found) throw badRequest(INVALID_TOKEN);
    const password_hash = await hashPassword(new_password);
    try {
      await db.transaction().execute(async (trx) => {
        if (!(await consumeToken(trx, found.id, at))) throw badRequest(INVALID_TOKEN);
        await trx.updateTable('users')
          .set((eb) => ({ password_hash, token_version: eb('token_version', '+', 1), updated_at: at.toISOString() }))
          .where('id', '=', found.user_id).execute();
        // Every other outstanding link of this user dies with this one.
        await trx.updateTable('password_tokens').set({ used_at: at.toISOString() })
          .where('user_id', '=', found.user_id).where('used_at', 'is', null).execute();
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(EMAIL_EXISTS);
      throw err;
    }
    nudgeOutbox();
    return c.json({ message: 'Your password has been set. You can now sign in.' }, 200);
  });
