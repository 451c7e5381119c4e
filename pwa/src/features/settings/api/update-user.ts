// PUT /users/{id}: name, phone and (admins, for other people) role. Partial: fields left out keep their value.
import { api } from '../../../lib/api-client.ts';
import type { Role, User } from '../../../lib/api-types.ts';

export interface UserChanges {
  name?: string;
  phone?: string | null;
  role?: Role;
}

export function updateUser(id: number, changes: UserChanges): Promise<User> {
  return api.put<User>(`/users/${id}`, changes);
}
