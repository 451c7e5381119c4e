// Request shapes of the people calls: adding staff and customers, editing, listing and the public staff list.
import { z } from '@hono/zod-openapi';
import { ROLES, STAFF_ROLES } from '@bookwell/db';
import { Email, Id, PersonName, Phone } from '../../lib/validation.ts';

const COMPANY_ROLES = [...STAFF_ROLES, 'customer'] as const;
const ROLE_LIST = ROLES.join(', ');

/** Ids in JSON bodies are numbers, never coerced: `true` or "7" is a type error, not id 1 or 7. */
const BodyId = z
  .number({ message: 'must be a positive integer' })
  .int('must be a positive integer')
  .positive('must be a positive integer')
  .max(2_147_483_647, 'is too large');

/** An empty phone field means "no phone". */
const OptionalPhone = z.preprocess((v) => (v === '' ? null : v), Phone.nullable()).transform((v) => (v ? v : null));

const personShape = {
  name: PersonName,
  email: Email,
  phone: OptionalPhone.optional(),
  /** The caller's company; global_admin names the company here. */
  company_id: BodyId.optional(),
};

export const CreateEmployeeBody = z
  .object({
    ...personShape,
    role: z.enum(STAFF_ROLES, { message: 'Role must be one of admin, manager, employee, user' }).default('employee'),
  })
  .openapi('CreateEmployeeRequest');

export const CreateCustomerBody = z
  .object({
    ...personShape,
    role: z.literal('customer', { message: 'Role must be customer' }).optional(),
  })
  .openapi('CreateCustomerRequest');

export const CreateUserBody = z
  .object({
    ...personShape,
    role: z.enum(COMPANY_ROLES, { message: 'Role must be one of admin, manager, employee, user, customer' }),
  })
  .openapi('CreateUserRequest');

export const UpdateUserBody = z
  .object({
    name: PersonName.optional(),
    phone: OptionalPhone.optional(),
    email: Email.optional(),
    role: z.enum(ROLES, { message: `Role must be one of ${ROLE_LIST}` }).optional(),
    /** Staff: email me when a customer books, reschedules or cancels with me. */
    booking_notices: z.boolean({ message: 'booking_notices must be true or false' }).optional(),
  })
  .openapi('UpdateUserRequest');

/** Query filters arrive as strings; an empty one (a form's "all") means no filter. */
const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

export const UserListQuery = z.object({
  company_id: z.preprocess(blankToUndefined, Id.optional()),
  role: z.preprocess(blankToUndefined, z.enum(ROLES, { message: `role must be one of ${ROLE_LIST}` }).optional()),
  search: z.string().trim().max(200, 'Search is too long').optional(),
});

export const EmployeesQuery = z.object({
  company_id: Id,
  /** Accepted for the seed client's `role=employee`; the list always holds every staff member. */
  role: z.preprocess(blankToUndefined, z.enum(STAFF_ROLES).optional()),
});
