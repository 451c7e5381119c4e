// Test people of every role for permission tests: rows inserted directly, tokens signed with the server's key.
import type { Role } from '@bookwell/db';
import { issueToken } from '../lib/auth.ts';
import { insertUser } from '../features/users/user.repository.ts';
import { registerCompany, uniqueEmail, type TestServer } from './harness.ts';

export interface TestPerson {
  id: number;
  role: Role;
  company_id: number | null;
  token: string;
}

/** A signed-in person of `role` at `companyId` (null for global_admin), without the cost of hashing a password. */
export async function addPerson(t: TestServer, companyId: number | null, role: Role, name = `${role} person`): Promise<TestPerson> {
  const user = await insertUser(
    t.db,
    {
      company_id: companyId,
      name,
      email: uniqueEmail(role),
      role,
      // Any non-null value: tokens of password-less accounts are refused, and nobody logs in with this one.
      password_hash: 'test-only-not-a-hash',
    },
    new Date(),
  );
  return { id: user.id, role, company_id: companyId, token: await issueToken(t.server.deps.jwtKey, user) };
}

export interface TestCompany {
  companyId: number;
  admin: TestPerson;
  manager: TestPerson;
  employee: TestPerson;
  user: TestPerson;
  customer: TestPerson;
}

/** A registered company with one person of every company role. */
export async function companyWithPeople(t: TestServer, companyName = 'Test Salon'): Promise<TestCompany> {
  const owner = await registerCompany(t, { company_name: companyName });
  const admin: TestPerson = { id: owner.user.id, role: 'admin', company_id: owner.companyId, token: owner.token };
  const [manager, employee, user, customer] = await Promise.all(
    (['manager', 'employee', 'user', 'customer'] as const).map((r) => addPerson(t, owner.companyId, r)),
  );
  return { companyId: owner.companyId, admin, manager, employee, user, customer };
}

export const addGlobalAdmin = (t: TestServer) => addPerson(t, null, 'global_admin', 'Global Admin');
