// Adding a person to a company: a password-less record plus, in the same transaction, the email
// that lets them set their first password (DECISIONS.md section 2, "Invitations").
import type { Kysely, Transaction } from 'kysely';
import type { Database, Role, UserRow } from '@bookwell/db';
import { badRequest, notFound } from '../../lib/errors.ts';
import { lockCompany } from '../companies/company.repository.ts';
import { sendPasswordLink } from '../auth/password-tokens.ts';
import { enqueueEmail } from '../notifications/outbox.ts';
import { assertRoomForOneMoreStaff } from './staff-limit.ts';
import { findByCompanyEmail, loginEmailTaken } from './user.repository.ts';

export const EMAIL_EXISTS = 'Email already exists';

export interface NewPerson {
  name: string;
  /** Lower-case already (the Email schema folds it). */
  email: string;
  phone: string | null;
  role: Exclude<Role, 'global_admin'>;
}

/**
 * Creates the person inside `trx` (the caller opens it and calls `nudgeOutbox()` after commit).
 * - The email must be new to the company; someone who signs in elsewhere cannot become staff
 *   here (one login per email), but can still be a customer here.
 * - A person removed earlier (archived) comes back as the same record, so history stays theirs.
 * - Staff count against the trial's limit.
 */
export async function addPerson(
  trx: Kysely<Database> | Transaction<Database>,
  companyId: number,
  person: NewPerson,
  opts: { appUrl: string; now: Date },
): Promise<UserRow> {
  const company = await lockCompany(trx, companyId);
  if (!company) throw notFound('Company not found');
  const existing = await findByCompanyEmail(trx, companyId, person.email);
  if (existing && !existing.archived_at) throw badRequest(EMAIL_EXISTS);
  const isStaff = person.role !== 'customer';
  const signsInElsewhere = await loginEmailTaken(trx, person.email, existing?.id);
  if (isStaff && signsInElsewhere) throw badRequest(EMAIL_EXISTS);
  if (isStaff) await assertRoomForOneMoreStaff(trx, company);

  const iso = opts.now.toISOString();
  const user = existing
    ? await trx.updateTable('users')
      .set((eb) => ({
        name: person.name, phone: person.phone, role: person.role, archived_at: null, password_hash: null,
        token_version: eb('token_version', '+', 1), updated_at: iso,
      }))
      .where('id', '=', existing.id).returningAll().executeTakeFirstOrThrow()
    : await trx.insertInto('users').values({
      company_id: companyId, name: person.name, email: person.email, phone: person.phone, role: person.role,
      password_hash: null, token_version: 0, archived_at: null, created_at: iso, updated_at: iso,
    }).returningAll().executeTakeFirstOrThrow();

  if (signsInElsewhere) {
    // Their email already has a password (one login per email), so a set-password link could not
    // be used: tell them where to book instead.
    await enqueueEmail(trx, {
      to: user.email,
      kind: 'customer_added',
      companyId,
      subject: `You were added as a customer of ${company.name}`,
      text: `Hello ${user.name},\n\n${company.name} added you as a customer. You already have an account with this email address, so there is no new password to set.\n\nYou can book with ${company.name} at ${opts.appUrl}/public/booking/${company.slug}\n`,
    }, opts.now);
  } else {
    await sendPasswordLink(trx, { user, purpose: 'invite', appUrl: opts.appUrl, companyName: company.name, now: opts.now });
  }
  return user;
}

/**
 * After a password-less person's email is corrected, their invitation follows them: old links die
 * and, if they had been invited, a fresh one goes to the new address.
 */
export async function redirectInvitation(
  trx: Kysely<Database> | Transaction<Database>,
  user: UserRow,
  opts: { appUrl: string; now: Date },
): Promise<void> {
  const pending = await trx.selectFrom('password_tokens').select('id')
    .where('user_id', '=', user.id).where('purpose', '=', 'invite').executeTakeFirst();
  await trx.updateTable('password_tokens').set({ used_at: opts.now.toISOString() })
    .where('user_id', '=', user.id).where('used_at', 'is', null).execute();
  if (!pending || user.password_hash || user.company_id == null) return;
  const company = await trx.selectFrom('companies').select('name').where('id', '=', user.company_id).executeTakeFirst();
  await sendPasswordLink(trx, { user, purpose: 'invite', appUrl: opts.appUrl, companyName: company?.name, now: opts.now });
}
