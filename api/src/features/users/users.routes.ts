// The people calls: staff and customers of a company (list, add with an invitation, edit, remove)
// and the public staff list of a booking page.
import { auditContext } from '../../lib/audit-context.ts';
import { z, type RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../lib/context.ts';
import { COMPANY_ADMINS_OR_GLOBAL, STAFF_OR_GLOBAL, currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, definePutAndPatch, errorResponse, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam, MessageSchema } from '../../lib/validation.ts';
import { PublicStaffSchema, UserSchema, toPublicStaffDto, toUserDto } from './user.mapper.ts';
import { CreateCustomerBody, CreateEmployeeBody, CreateUserBody, EmployeesQuery, UpdateUserBody, UserListQuery } from './user.schema.ts';
import {
  changePerson,
  createPerson,
  getPerson,
  listVisiblePeople,
  publicStaffOf,
  removePerson,
  sendInvitationAgain,
} from './user.service.ts';

const listUsers = defineRoute({
  method: 'get',
  path: '/users',
  access: STAFF_OR_GLOBAL,
  tags: ['users'],
  summary:
    "People of the caller's company (global_admin: everyone, or one company with company_id); search matches name or email, ignoring case",
  request: { query: UserListQuery },
  responses: { 200: jsonResponse(z.array(UserSchema), 'People, by name') },
});

/** The three ways to add a person differ in path, body and wording; each sends an invitation. */
const addPersonRoute = <const P extends string, const B extends z.ZodType>(path: P, body: B, summary: string) =>
  defineRoute({
    method: 'post',
    path,
    access: COMPANY_ADMINS_OR_GLOBAL,
    tags: ['users'],
    summary,
    request: { body: jsonBody(body) },
    responses: { 201: jsonResponse(UserSchema, 'Created, password-less, invitation sent') },
  });

const createUser = addPersonRoute(
  '/users',
  CreateUserBody,
  'Add a person with any company role (managers: employee, user or customer); they get an email to set their password',
);
const createEmployee = addPersonRoute(
  '/users/employee',
  CreateEmployeeBody,
  'Add a staff member (role employee by default; managers cannot add admins or managers); they get an email to set their password',
);
const createCustomer = addPersonRoute('/users/customer', CreateCustomerBody, 'Add a customer; they get an email to set their password');

const getUser = defineRoute({
  method: 'get',
  path: '/users/{id}',
  access: 'authenticated',
  tags: ['users'],
  summary: 'A person: yourself, someone of your company (staff), anyone (global_admin)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(UserSchema, 'The person') },
});

const updateUser = definePutAndPatch(
  {
    path: '/users/{id}',
    access: 'authenticated',
    tags: ['users'],
    summary:
      'Edit a person (partial). Everyone edits their own name and phone; admins and managers edit others of their company; only admins change roles, never their own',
    request: { params: IdParam, body: jsonBody(UpdateUserBody) },
    responses: { 200: jsonResponse(UserSchema, 'The updated person') },
  },
  'Alias of PUT /users/{id}',
);

const deleteUser = defineRoute({
  method: 'delete',
  path: '/users/{id}',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'users',
  tags: ['users'],
  summary: 'Remove a person: archived when appointments refer to them (history keeps the name), deleted otherwise',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' } },
});

const inviteAgainRoute = defineRoute({
  method: 'post',
  path: '/users/{id}/invitation',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'users',
  tags: ['users'],
  summary: 'Send a person without a password a fresh invitation (7 days); the earlier links stop working',
  request: { params: IdParam },
  responses: {
    200: jsonResponse(MessageSchema, 'Sent'),
    409: errorResponse('They have set a password already'),
  },
});

const listEmployees = defineRoute({
  method: 'get',
  path: '/employees',
  access: 'public',
  tags: ['users'],
  summary: 'The public staff list of a company: id and name of every staff member, whatever their staff role',
  request: { query: EmployeesQuery },
  responses: { 200: jsonResponse(z.array(PublicStaffSchema), 'Staff, by name') },
});

const changePersonHandler: RouteHandler<typeof updateUser.put, AppEnv> = async (c) => {
  const updated = await changePerson(c.get('deps'), currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c));
  return c.json(toUserDto(updated, { settings: true }), 200);
};

export const userRoutes = createRouter()
  .openapi(listUsers, async (c) => {
    const people = await listVisiblePeople(c.get('deps').db, currentActor(c), c.req.valid('query'));
    return c.json(
      people.map((p) => toUserDto(p)),
      200,
    );
  })
  .openapi(createUser, async (c) => {
    const body = c.req.valid('json');
    return c.json(toUserDto(await createPerson(c.get('deps'), currentActor(c), body, body.role, auditContext(c))), 201);
  })
  .openapi(createEmployee, async (c) => {
    const body = c.req.valid('json');
    return c.json(toUserDto(await createPerson(c.get('deps'), currentActor(c), body, body.role, auditContext(c))), 201);
  })
  .openapi(createCustomer, async (c) =>
    c.json(toUserDto(await createPerson(c.get('deps'), currentActor(c), c.req.valid('json'), 'customer', auditContext(c))), 201),
  )
  .openapi(getUser, async (c) =>
    c.json(toUserDto(await getPerson(c.get('deps').db, currentActor(c), c.req.valid('param').id), { settings: true }), 200),
  )
  .openapi(updateUser.put, changePersonHandler)
  .openapi(updateUser.patch, changePersonHandler)
  .openapi(deleteUser, async (c) => {
    await removePerson(c.get('deps'), currentActor(c), c.req.valid('param').id, auditContext(c));
    return c.body(null, 204);
  })
  .openapi(inviteAgainRoute, async (c) => {
    await sendInvitationAgain(c.get('deps'), currentActor(c), c.req.valid('param').id);
    return c.json({ message: 'Invitation sent' }, 200);
  })
  .openapi(listEmployees, async (c) => {
    const staff = await publicStaffOf(c.get('deps').db, c.req.valid('query').company_id);
    return c.json(staff.map(toPublicStaffDto), 200);
  });
