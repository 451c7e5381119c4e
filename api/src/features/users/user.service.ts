// The people calls' rules: who sees, adds, changes and removes whom, each write in one transaction,
// and the global administrator created at start-up.
import type { Role, UserRow } from '@bookwell/db';
import type { Actor, AppDeps } from '../../lib/context.ts';
import { actingCompanyId } from '../../lib/authorize.ts';
import { syncAppointmentsShowing } from '../appointments/booking-transaction.service.ts';
import { hashPassword } from '../../lib/auth.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { normalisePhone } from '../../lib/phone.ts';
import { isUniqueViolation, uniqueOr } from '../../lib/db-errors.ts';
import { findCompanyById, lockCompany } from '../companies/company.repository.ts';
import type { AuditContext } from '../../lib/audit-context.ts';
import { createdChanges, deletedChanges, diffChanges, pickFields, recordAudit, USER_AUDIT_FIELDS } from '../audit/audit.repository.ts';
import { EMAIL_EXISTS, addPerson, inviteAgain, redirectInvitation } from './invitation.service.ts';
import { assertRoomForOneMoreStaff } from './staff-limit.service.ts';
import {
  USER_NOT_FOUND,
  assertCanAddRole,
  assertCanChangePerson,
  assertCanRemovePerson,
  assertCanSeePerson,
  type PersonChange,
} from './user.policy.ts';
import {
  archivePerson,
  deletePerson,
  findAnyByEmail,
  findByCompanyEmail,
  findPerson,
  hasAppointmentHistory,
  insertUser,
  listPeople,
  listPublicStaff,
  loginEmailTaken,
  updatePerson,
} from './user.repository.ts';

export type UserDeps = Pick<AppDeps, 'db' | 'database' | 'config' | 'now' | 'nudgeOutbox'>;

/** Two requests adding (or moving to) the same email at once: the loser gets the answer a late one would. */
const emailExists = () => badRequest(EMAIL_EXISTS);

export async function listVisiblePeople(
  db: UserDeps['db'],
  actor: Actor,
  q: { company_id?: number; role?: Role; search?: string },
): Promise<UserRow[]> {
  const companyId = actor.role === 'global_admin' ? q.company_id : actingCompanyId(actor, q.company_id);
  return listPeople(db, { companyId, role: q.role, search: q.search });
}

export interface CreatePersonInput {
  name: string;
  email: string;
  phone?: string | null;
  company_id?: number;
}

/** Adds a password-less person to the caller's company (or the one a global_admin names) and invites them. */
export async function createPerson(
  deps: UserDeps,
  actor: Actor,
  body: CreatePersonInput,
  role: Exclude<Role, 'global_admin'>,
  who: AuditContext,
): Promise<UserRow> {
  const { db, config, now, nudgeOutbox } = deps;
  const companyId = actingCompanyId(actor, body.company_id);
  assertCanAddRole(actor, role);
  const at = now();
  const user = await uniqueOr(
    () =>
      db.transaction().execute(async (trx) => {
        const added = await addPerson(
          trx,
          companyId,
          {
            name: body.name,
            email: body.email,
            phone: body.phone ?? null,
            role,
          },
          { appUrl: config.APP_URL, now: at },
        );
        await recordAudit(trx, who, {
          company_id: companyId,
          action: 'create',
          entity: 'user',
          entity_id: added.id,
          changes: createdChanges(pickFields(added, USER_AUDIT_FIELDS)),
        });
        return added;
      }),
    emailExists,
  );
  nudgeOutbox();
  return user;
}

export async function getPerson(db: UserDeps['db'], actor: Actor, id: number): Promise<UserRow> {
  const target = await findPerson(db, id);
  if (!target) throw notFound(USER_NOT_FOUND);
  assertCanSeePerson(actor, target);
  return target;
}

/** PUT /users/{id}: a changed email must stay unique and carries the invitation along; promoting a customer counts against the trial. */
export async function changePerson(deps: UserDeps, actor: Actor, id: number, change: PersonChange, who: AuditContext): Promise<UserRow> {
  const { db, config, now, nudgeOutbox } = deps;
  const at = now();
  let emailChanged = false;
  const updated = await uniqueOr(
    () =>
      db.transaction().execute(async (trx) => {
        const target = await findPerson(trx, id);
        if (!target) throw notFound(USER_NOT_FOUND);
        assertCanSeePerson(actor, target);
        assertCanChangePerson(actor, target, change);
        const roleChanged = change.role !== undefined && change.role !== target.role;
        emailChanged = change.email !== undefined && change.email !== target.email;
        if (emailChanged) {
          const email = change.email!;
          if (target.company_id != null && (await findByCompanyEmail(trx, target.company_id, email))) throw badRequest(EMAIL_EXISTS);
          // One login per email: whoever has or will get a password (staff are invited) needs a free one.
          const willSignIn = target.password_hash != null || target.role !== 'customer' || (change.role ?? target.role) !== 'customer';
          if (willSignIn && (await loginEmailTaken(trx, email, target.id))) throw badRequest(EMAIL_EXISTS);
        }
        if (roleChanged && target.role === 'customer' && target.company_id != null) {
          // Promoting a customer adds a staff member: the trial's limit applies.
          const company = await lockCompany(trx, target.company_id);
          if (company) await assertRoomForOneMoreStaff(trx, company);
        }
        // Stored in E.164, read with the person's company's country (docs/decisions/22-messaging.md).
        const country = change.phone && target.company_id != null ? (await findCompanyById(trx, target.company_id))?.country : null;
        const row = await updatePerson(
          trx,
          target.id,
          {
            name: change.name,
            phone: change.phone === undefined ? undefined : normalisePhone(change.phone, country, 'phone'),
            email: emailChanged ? change.email : undefined,
            role: roleChanged ? change.role : undefined,
            booking_notices: change.booking_notices,
          },
          at,
        );
        if (emailChanged) await redirectInvitation(trx, row, { appUrl: config.APP_URL, now: at });
        const changes = diffChanges(target, pickFields(row, [...USER_AUDIT_FIELDS, 'booking_notices']));
        // Their appointments show their name and contact: offline copies must hear of the change.
        if ((changes.name || changes.email || changes.phone) && target.company_id != null)
          await syncAppointmentsShowing(trx, deps.database.dialect, target.company_id, { userId: target.id });
        if (Object.keys(changes).length) {
          await recordAudit(trx, who, {
            company_id: target.company_id,
            action: changes.role ? 'change_role' : 'update',
            entity: 'user',
            entity_id: target.id,
            changes,
          });
        }
        return row;
      }),
    emailExists,
  );
  if (emailChanged) nudgeOutbox();
  return updated;
}

/** Archived when appointments refer to them (history keeps the name), deleted otherwise. */
export async function removePerson(deps: Pick<UserDeps, 'db' | 'now'>, actor: Actor, id: number, who: AuditContext): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const target = await findPerson(trx, id);
    if (!target) throw notFound(USER_NOT_FOUND);
    assertCanSeePerson(actor, target);
    assertCanRemovePerson(actor, target);
    const archived = await hasAppointmentHistory(trx, target.id);
    if (archived) await archivePerson(trx, target.id, deps.now());
    else await deletePerson(trx, target.id);
    await recordAudit(trx, who, {
      company_id: target.company_id,
      action: archived ? 'archive' : 'delete',
      entity: 'user',
      entity_id: target.id,
      changes: deletedChanges(pickFields(target, USER_AUDIT_FIELDS)),
    });
  });
}

/** A fresh invitation for someone without a password, from whoever could have added them. */
export async function sendInvitationAgain(deps: UserDeps, actor: Actor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const target = await findPerson(trx, id);
    if (!target) throw notFound(USER_NOT_FOUND);
    assertCanSeePerson(actor, target);
    assertCanAddRole(actor, target.role);
    await inviteAgain(trx, target, { appUrl: deps.config.APP_URL, now: deps.now() });
  });
  deps.nudgeOutbox();
}

/** The public staff list of a company, which must exist. */
export async function publicStaffOf(db: UserDeps['db'], companyId: number) {
  if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
  return listPublicStaff(db, companyId);
}

/** Creates the global_admin with this email and password unless a user has that email; true when created. */
export async function createGlobalAdmin(db: UserDeps['db'], email: string, password: string, now: Date): Promise<boolean> {
  const lower = email.toLowerCase();
  if (await findAnyByEmail(db, lower)) return false;
  const password_hash = await hashPassword(password);
  try {
    await insertUser(db, { company_id: null, name: 'Administrator', email: lower, role: 'global_admin', password_hash }, now);
  } catch (err) {
    // Several processes starting at once: one of them creates it.
    if (!isUniqueViolation(err)) throw err;
  }
  return true;
}
