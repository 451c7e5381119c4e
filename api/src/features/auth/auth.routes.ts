// Sign-up, sign-in, the current user and every password call (change, reset request, validate, confirm).
import { z } from '@hono/zod-openapi';
import { auditContext } from '../../lib/audit-context.ts';
import { currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { MessageSchema } from '../../lib/validation.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { toUserDto, UserSchema } from '../users/user.mapper.ts';
import {
  ChangePasswordBody,
  LoginBody,
  RegisterBody,
  ResetConfirmBody,
  ResetRequestBody,
  TokenSchema,
  ValidateQuery,
} from './auth.schema.ts';
import {
  assertUsableToken,
  changePassword as changeOwnPassword,
  confirmPasswordReset,
  currentUser,
  login as signIn,
  register as signUp,
  requestPasswordReset,
} from './auth.service.ts';

const register = defineRoute({
  method: 'post',
  path: '/register',
  access: 'public',
  tags: ['auth'],
  summary: 'Create a company and its admin (or, with role customer and company_slug, a customer account)',
  request: { body: jsonBody(RegisterBody) },
  responses: {
    200: jsonResponse(TokenSchema, 'Signed up; the session token'),
    202: jsonResponse(MessageSchema, 'A password-less customer record exists: a set-password email was sent'),
    409: jsonResponse(MessageSchema, 'Conflict'),
  },
});

const login = defineRoute({
  method: 'post',
  path: '/login',
  access: 'public',
  tags: ['auth'],
  summary: 'Sign in',
  request: { body: jsonBody(LoginBody) },
  responses: { 200: jsonResponse(TokenSchema, 'The session token (7 days)') },
});

const me = defineRoute({
  method: 'get',
  path: '/me',
  access: 'authenticated',
  tags: ['auth'],
  summary: 'The signed-in user',
  responses: { 200: jsonResponse(UserSchema, 'The current user') },
});

const changePassword = defineRoute({
  method: 'post',
  path: '/me/change-password',
  access: 'authenticated',
  unauthenticatedMessage: 'User not authenticated. Please log in again.',
  tags: ['auth'],
  summary: 'Change the own password; older tokens stop working and a fresh one is returned',
  request: { body: jsonBody(ChangePasswordBody) },
  responses: { 200: jsonResponse(z.object({ message: z.string(), token: z.string() }), 'Changed') },
});

const resetRequest = defineRoute({
  method: 'post',
  path: '/password-reset/request',
  access: 'public',
  tags: ['auth'],
  summary: 'Email a one-hour reset link (same answer whether or not the address exists)',
  request: { body: jsonBody(ResetRequestBody) },
  responses: { 200: jsonResponse(MessageSchema, 'Accepted') },
});

const resetValidate = defineRoute({
  method: 'get',
  path: '/password-reset/validate',
  access: 'public',
  tags: ['auth'],
  summary: 'Whether a reset or invitation token can still be used',
  request: { query: ValidateQuery },
  responses: { 200: jsonResponse(z.object({ valid: z.literal(true) }), 'Usable') },
});

const resetConfirm = defineRoute({
  method: 'post',
  path: '/password-reset/confirm',
  access: 'public',
  tags: ['auth'],
  summary: 'Set a new password with a reset or invitation token (single use)',
  request: { body: jsonBody(ResetConfirmBody) },
  responses: { 200: jsonResponse(MessageSchema, 'Password set') },
});

export const authRoutes = createRouter()
  .openapi(register, async (c) => {
    const result = await signUp(c.get('deps'), c.get('clientIp'), c.req.valid('json'), auditContext(c));
    if ('invited' in result) {
      return c.json(
        { message: 'We already have your details from a booking. We sent you an email with a link to set your password.' },
        202,
      );
    }
    return c.json({ token: result.token }, 200);
  })
  .openapi(login, async (c) => {
    const { email, password } = c.req.valid('json');
    return c.json({ token: await signIn(c.get('deps'), c.get('clientIp'), email, password, auditContext(c)) }, 200);
  })
  .openapi(me, async (c) => c.json(toUserDto(await currentUser(c.get('deps').db, currentActor(c).id), { settings: true }), 200))
  .openapi(changePassword, async (c) => {
    // Attempts per person and IP, as sign-ins are counted: a stolen session cannot guess the
    // current password at speed (docs/decisions/29-input-rate-limits-request-ids.md).
    const deps = c.get('deps');
    await enforceLimit(deps.db, {
      bucket: 'change-password',
      key: `${currentActor(c).id}|${c.get('clientIp')}`,
      max: deps.config.RATE_LIMIT_LOGIN,
      windowMs: 15 * 60_000,
      now: deps.now(),
      message: (wait) => `Too many password change attempts. Please try again in ${wait}.`,
    });
    const { current_password, new_password } = c.req.valid('json');
    const token = await changeOwnPassword(c.get('deps'), currentActor(c).id, current_password, new_password, auditContext(c));
    return c.json({ message: 'Password changed successfully', token }, 200);
  })
  .openapi(resetRequest, async (c) => {
    await requestPasswordReset(c.get('deps'), c.get('clientIp'), c.req.valid('json').email_or_username);
    return c.json({ message: 'If an account exists for that email, a password reset link has been sent.' }, 200);
  })
  .openapi(resetValidate, async (c) => {
    c.header('Referrer-Policy', 'no-referrer');
    await assertUsableToken(c.get('deps'), c.req.valid('query').token);
    return c.json({ valid: true as const }, 200);
  })
  .openapi(resetConfirm, async (c) => {
    // Per IP, like the reset request: tokens are unguessable, but nobody may try them at speed.
    const deps = c.get('deps');
    await enforceLimit(deps.db, {
      bucket: 'reset-confirm',
      key: c.get('clientIp'),
      max: deps.config.RATE_LIMIT_PUBLIC,
      windowMs: 60_000,
      now: deps.now(),
      message: 'Too many requests. Please wait a minute and try again.',
    });
    const { token, new_password } = c.req.valid('json');
    await confirmPasswordReset(c.get('deps'), token, new_password, auditContext(c));
    return c.json({ message: 'Your password has been set. You can now sign in.' }, 200);
  });
