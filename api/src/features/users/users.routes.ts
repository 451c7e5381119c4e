// The people calls: staff and customers of a company (list, add with an invitation, edit, remove)
// and the public staff list of a booking page.
import { z, type RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Role } from '@bookwell/db';
import type { AppEnv } from '../../lib/context.ts';
import { COMPANY_ADMINS_OR_GLOBAL, STAFF_OR_GLOBAL, actingCompanyId, currentActor } from '../../lib/authorize.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { findCompanyById, lockCompany } from '../companies/company.repository.ts';
import { EMAIL_EXISTS, addPerson, redirectInvitation } from './invitations.ts';
import { assertRoomForOneMoreStaff } from './staff-limit.ts';
import { PublicStaffSchema, UserSchema, toPublicStaffDto, toUserDto } from './user.mapper.ts';
import { USER_NOT_FOUND, assertCanAddRole, assertCanChangePerson, assertCanRemovePerson, assertCanSeePerson } from './user.policy.ts';
import {
  archivePerson, deletePerson, findByCompanyEmail, findPerson, hasAppointmentHistory, listPeople, listPublicStaff, loginEmailTaken,
} from './user.repository.ts';
import { CreateCustomerBody, CreateEmployeeBody, CreateUserBody, EmployeesQuery, UpdateUserBody, UserListQuery } from './user.schema.ts';

const listUsers = defineRoute({
  method: 'get', path: '/users', access: STAFF_OR_GLOBAL, tags: ['users'],
  summary: 'People of the caller\'s company (global_admin: everyone, or one company with company_id); search matches name or email, ignoring case',
  request: { query: UserListQuery },
  responses: { 200: jsonResponse(z.array(UserSchema), 'People, by name') },
});

const createUser = defineRoute({
  method: 'post', path: '/users', access: COMPANY_ADMINS_OR_GLOBAL, tags: ['users'],
  summary: 'Add a person with any company role (managers: employee, user or customer); they get an email to set their password',
  request: { body: jsonBody(CreateUserBody) },
  responses: { 201: jsonResponse(UserSchema, 'Created, password-less, invitation sent') },
});

const createEmployee = defineRoute({
  method: 'post', path: '/users/employee', access: COMPANY_ADMINS_OR_GLOBAL, tags: ['users'],
  summary: 'Add a staff member (role employee by default; managers cannot add admins or managers); they get an email to set their password',
  request: { body: jsonBody(CreateEmployeeBody) },
  responses: { 201: jsonResponse(UserSchema, 'Created, password-less, invitation sent') },
});

const createCustomer = defineRoute({
  method: 'post', path: '/users/customer', access: COMPANY_ADMINS_OR_GLOBAL, tags: ['users'],
  summary: 'Add a customer; they get an email to set their password',
  request: { body: jsonBody(CreateCustomerBody) },
  responses: { 201: jsonResponse(UserSchema, 'Created, password-less, invitation sent') },
});

const getUser = defineRoute({
  method: 'get', path: '/users/{id}', access: 'authenticated', tags: ['users'],
  summary: 'A person: yourself, someone of your company (staff), anyone (global_admin)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(UserSchema, 'The person') },
});

const updateUser = defineRoute({
  method: 'put', path: '/users/{id}', access: 'authenticated', tags: ['users'],
  summary: 'Edit a person (partial). Everyone edits their own name and phone; admins and managers edit others of their company; only admins change roles, never their own',
  request: { params: IdParam, body: jsonBody(UpdateUserBody) },
  responses: { 200: jsonResponse(UserSchema, 'The updated person') },
});

const patchUser = defineRoute({
  method: 'patch', path: '/users/{id}', access: 'authenticated', tags: ['users'],
  summary: 'Alias of PUT /users/{id}',
  request: { params: IdParam, body: jsonBody(UpdateUserBody) },
  responses: { 200: jsonResponse(UserSchema, 'The updated person') },
});

const deleteUser = defineRoute({
  method: 'delete', path: '/users/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags: ['users'],
  summary: 'Remove a person: archived when appointments refer to them (history keeps the name), deleted otherwise',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' } },
});

const listEmployees = defineRoute({
  method: 'get', path: '/employees', access: 'public', tags: ['users'],
  summary: 'The public staff list of a company: id and name of every staff member, whatever their staff role',
  request: { query: EmployeesQuery },
  responses: { 200: jsonResponse(z.array(PublicStaffSchema), 'Staff, by name') },
});

type CreateInput = { name: string; email: string; phone?: string | null; company_id?: number };

async function createPerson(c: Context<AppEnv, any, any>, body: CreateInput, role: Exclude<Role, 'global_admin'>) {
  const { db, config, now, nudgeOutbox } = c.get('deps');
  const actor = currentActor(c);
  const companyId = actingCompanyId(actor, body.company_id);
  assertCanAddRole(actor, role);
  const at = now();
  try {
    const user = await db.transaction().execute((trx) => addPerson(trx, companyId, {
      name: body.name, email: body.email, phone: body.phone ?? null, role,
    }, { appUrl: config.APP_URL, now: at }));
    nudgeOutbox();
    return c.json(toUserDto(user), 201);
  } catch (err) {
    // Two requests adding the same email at once: the loser gets the same answer as a late one.
    if (isUniqueViolation(err)) throw badRequest(EMAIL_EXISTS);
    throw err;
  }
}

const changePerson: RouteHandler<typeof updateUser, AppEnv> = async (c) => {
  const { db, config, now, nudgeOutbox } = c.get('deps');
  const actor = currentActor(c);
  const { id } = c.req.valid('param');
  const change = c.req.valid('json');
  const at = now();
  const iso = at.toISOString();
  let emailChanged = false;
  try {
    const updated = await db.transaction().execute(async (trx) => {
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
      const row = await trx.updateTable('users')
        .set((eb) => ({
          name: change.name,
          phone: change.phone,
          email: emailChanged ? change.email : undefined,
          role: roleChanged ? change.role : undefined,
          // A new role must not ride on tokens issued for the old one.
          token_version: roleChanged ? eb('token_version', '+', 1) : undefined,
          updated_at: iso,
        }))
        .where('id', '=', target.id).returningAll().executeTakeFirstOrThrow();
      if (emailChanged) await redirectInvitation(trx, row, { appUrl: config.APP_URL, now: at });
      return row;
    });
    if (emailChanged) nudgeOutbox();
    return c.json(toUserDto(updated), 200);
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(EMAIL_EXISTS);
    throw err;
  }
};

export const userRoutes = createRouter()
  .openapi(listUsers, async (c) => {
    const { db } = c.get('deps');
    const actor = currentActor(c);
    const q = c.req.valid('query');
    const companyId = actor.role === 'global_admin' ? q.company_id : actingCompanyId(actor, q.company_id);
    const people = await listPeople(db, { companyId, role: q.role, search: q.search });
    return c.json(people.map(toUserDto), 200);
  })
  .openapi(createUser, async (c) => {
    const body = c.req.valid('json');
    return createPerson(c, body, body.role);
  })
  .openapi(createEmployee, async (c) => {
    const body = c.req.valid('json');
    return createPerson(c, body, body.role);
  })
  .openapi(createCustomer, async (c) => createPerson(c, c.req.valid('json'), 'customer'))
  .openapi(getUser, async (c) => {
    const actor = currentActor(c);
    const target = await findPerson(c.get('deps').db, c.req.valid('param').id);
    if (!target) throw notFound(USER_NOT_FOUND);
    assertCanSeePerson(actor, target);
    return c.json(toUserDto(target), 200);
  })
  .openapi(updateUser, changePerson)
  .openapi(patchUser, changePerson)
  .openapi(deleteUser, async (c) => {
    const { db, now } = c.get('deps');
    const actor = currentActor(c);
    const { id } = c.req.valid('param');
    await db.transaction().execute(async (trx) => {
      const target = await findPerson(trx, id);
      if (!target) throw notFound(USER_NOT_FOUND);
      assertCanSeePerson(actor, target);
      assertCanRemovePerson(actor, target);
      if (await hasAppointmentHistory(trx, target.id)) await archivePerson(trx, target.id, now());
      else await deletePerson(trx, target.id);
    });
    return c.body(null, 204);
  })
  .openapi(listEmployees, async (c) => {
    const { db } = c.get('deps');
    const { company_id } = c.req.valid('query');
    if (!(await findCompanyById(db, company_id))) throw notFound('Company not found');
    return c.json((await listPublicStaff(db, company_id)).map(toPublicStaffDto), 200);
  });
