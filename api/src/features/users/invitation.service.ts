// Adding a person to a company: a password-less record plus, in the same transaction, the email
// that lets them set their first password (docs/decisions/02-api-conventions.md, "Invitations").
import type { DbOrTx, Role, UserRow } from '@bookwell/db';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { normalisePhone } from '../../lib/phone.ts';
import { findCompanyById, lockCompany } from '../companies/company.repository.ts';
import { sendPasswordLink } from '../password-tokens/password-token.service.ts';
import { retireUserTokens, wasInvited } from '../password-tokens/password-token.repository.ts';
import { enqueueEmail } from '../notifications/outbox.repository.ts';
import { assertRoomForOneMoreStaff } from './staff-limit.service.ts';
import { findByCompanyEmail, insertUser, loginEmailTaken, revivePerson } from './user.repository.ts';

export const EMAIL_EXISTS = 'Email already exists';
export const ALREADY_HAS_PASSWORD = 'This person has set a password already: they can use "Forgot your password?" to choose a new one';

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
export async function addPerson(trx: DbOrTx, companyId: number, person: NewPerson, opts: { appUrl: string; now: Date }): Promise<UserRow> {
  const company = await lockCompany(trx, companyId);
  if (!company) throw notFound('Company not found');
  // Stored in E.164, read with the company's country (docs/decisions/22-messaging.md).
  person = { ...person, phone: normalisePhone(person.phone, company.country, 'phone') };
  const existing = await findByCompanyEmail(trx, companyId, person.email);
  if (existing && !existing.archived_at) throw badRequest(EMAIL_EXISTS);
  const isStaff = person.role !== 'customer';
  const signsInElsewhere = await loginEmailTaken(trx, person.email, existing?.id);
  if (isStaff && signsInElsewhere) throw badRequest(EMAIL_EXISTS);
  if (isStaff) await assertRoomForOneMoreStaff(trx, company);

  const user = existing
    ? await revivePerson(trx, existing.id, person, opts.now)
    : await insertUser(trx, { company_id: companyId, ...person }, opts.now);

  if (signsInElsewhere) {
    // Their email already has a password (one login per email), so a set-password link could not
    // be used: tell them where to book instead.
    await enqueueEmail(
      trx,
      {
        to: user.email,
        kind: 'invitation',
        companyId,
        subject: `You were added as a customer of ${company.name}`,
        text: `Hello ${user.name},\n\n${company.name} added you as a customer. You already have an account with this email address, so there is no new password to set.\n\nYou can book with ${company.name} at ${opts.appUrl}/public/booking/${company.slug}\n`,
      },
      opts.now,
    );
  } else {
    await sendPasswordLink(trx, { user, purpose: 'invite', appUrl: opts.appUrl, companyName: company.name, now: opts.now });
  }
  return user;
}

/**
 * After a password-less person's email is corrected, their invitation follows them: old links die
 * and, if they had been invited, a fresh one goes to the new address.
 */
export async function redirectInvitation(trx: DbOrTx, user: UserRow, opts: { appUrl: string; now: Date }): Promise<void> {
  const invited = await wasInvited(trx, user.id);
  await retireUserTokens(trx, user.id, opts.now);
  if (!invited || user.password_hash || user.company_id == null) return;
  await sendInvitation(trx, user, opts);
}

/**
 * "Send the invitation again" (POST /users/{id}/invitation): a person who has not set a password
 * yet gets a fresh 7-day link, and the links sent before stop working. Someone with a password
 * resets it themselves (409).
 */
export async function inviteAgain(trx: DbOrTx, user: UserRow, opts: { appUrl: string; now: Date }): Promise<void> {
  if (user.password_hash) throw new AppError('conflict', ALREADY_HAS_PASSWORD);
  await retireUserTokens(trx, user.id, opts.now);
  await sendInvitation(trx, user, opts);
}

/** A first-password link for the person, in their company's name. */
async function sendInvitation(trx: DbOrTx, user: UserRow, opts: { appUrl: string; now: Date }): Promise<void> {
  const company = user.company_id == null ? undefined : await findCompanyById(trx, user.company_id);
  await sendPasswordLink(trx, { user, purpose: 'invite', appUrl: opts.appUrl, companyName: company?.name, now: opts.now });
}
