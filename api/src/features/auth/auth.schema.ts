// Request and response shapes of sign-up, sign-in and password calls.
import { z } from '@hono/zod-openapi';
import { Email, Password, PersonName, TimeZone } from '../../lib/validation.ts';

export const TokenSchema = z.object({ token: z.string() }).openapi('Token');

/** The sign-up check of docs/product/05-validation.md, on the server too: a field left out or blank is 'All fields are required'. */
const ALL_REQUIRED = 'All fields are required';
const requiredText = (field: z.ZodType<string, string>, trim = true) =>
  (trim ? z.string({ message: ALL_REQUIRED }).trim() : z.string({ message: ALL_REQUIRED })).min(1, ALL_REQUIRED).pipe(field);

export const RegisterBody = z
  .object({
    name: requiredText(PersonName),
    email: requiredText(Email),
    password: requiredText(Password, false),
    role: z.enum(['admin', 'customer'], { message: 'Registration creates an admin (or a customer with company_slug)' }).default('admin'),
    company_name: z.string().trim().max(200, 'Company name is too long').optional(),
    company_slug: z.string().trim().max(100).optional(),
    timezone: TimeZone.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.role === 'admin' && !b.company_name) ctx.addIssue({ code: 'custom', path: ['company_name'], message: ALL_REQUIRED });
    if (b.role === 'customer' && !b.company_slug)
      ctx.addIssue({ code: 'custom', path: ['company_slug'], message: 'company_slug is required for a customer account' });
  })
  .openapi('RegisterRequest');

export const LoginBody = z
  .object({
    email: z.string().trim().toLowerCase().min(1, 'Invalid email or password').max(254, 'Invalid email or password'),
    password: z.string().min(1, 'Invalid email or password').max(256, 'Invalid email or password'),
  })
  .openapi('LoginRequest');

export const ChangePasswordBody = z
  .object({
    current_password: z.string({ message: 'Current password is required.' }).min(1, 'Current password is required.').max(256),
    new_password: z
      .string({ message: 'New password is required.' })
      .min(1, 'New password is required.')
      .min(6, 'New password must be at least 6 characters long.')
      .max(256, 'New password is too long.'),
  })
  .openapi('ChangePasswordRequest');

export const ResetRequestBody = z
  .object({
    email_or_username: z
      .string({ message: 'Invalid email address' })
      .trim()
      .toLowerCase()
      .max(254, 'Invalid email address')
      .email('Invalid email address'),
  })
  .openapi('PasswordResetRequest');

export const ResetConfirmBody = z
  .object({
    token: z.string({ message: 'Invalid reset token' }).min(1, 'Invalid reset token').max(200, 'Invalid or expired reset token'),
    new_password: Password,
  })
  .openapi('PasswordResetConfirm');

export const ValidateQuery = z.object({ token: z.string().max(200).optional() });
