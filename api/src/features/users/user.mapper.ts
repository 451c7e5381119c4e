// The one place a user row becomes what the API shows: never the password hash or token version.
import { ROLES, type UserRow } from '@bookwell/db';
import { z } from '@hono/zod-openapi';

export const UserSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    role: z.enum(ROLES),
    company_id: z.number().int().nullable(),
    created_at: z.string(),
    has_password: z.boolean(),
    /** Staff only: email me when a customer books, reschedules or cancels with me (docs/decisions/22-messaging.md). */
    booking_notices: z.boolean().optional(),
  })
  .openapi('User');

export type UserDto = z.infer<typeof UserSchema>;

/** `settings`: the person's own settings too (GET/PUT /users/{id}, GET /me), for staff. */
export function toUserDto(
  u: Pick<UserRow, 'id' | 'name' | 'email' | 'phone' | 'role' | 'company_id' | 'created_at' | 'password_hash'> &
    Partial<Pick<UserRow, 'booking_notices'>>,
  opts: { settings?: boolean } = {},
): UserDto {
  const settings =
    opts.settings && u.role !== 'customer' && u.booking_notices !== undefined ? { booking_notices: u.booking_notices === 1 } : {};
  return {
    ...settings,
    id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    role: u.role,
    company_id: u.company_id,
    created_at: u.created_at,
    has_password: u.password_hash != null,
  };
}

/** The public staff list (GET /employees): a name to pick, nothing that reaches the person. */
export const PublicStaffSchema = z.object({ id: z.number().int(), name: z.string() }).openapi('PublicStaffMember');
export type PublicStaffDto = z.infer<typeof PublicStaffSchema>;

export function toPublicStaffDto(u: Pick<UserRow, 'id' | 'name'>): PublicStaffDto {
  return { id: u.id, name: u.name };
}
