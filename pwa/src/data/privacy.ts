// A person's data (docs/decisions/32-privacy-and-operations.md): the JSON export as a file to save,
// and the erasure of a customer's account.
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';

export type PersonExport = InferResponseType<(typeof client.users)[':id']['export']['$get'], 200>;
export type Erasure = InferResponseType<(typeof client.users)[':id']['erase']['$post'], 200>;

/** GET /users/{id}/export: everything held about them (the person, or an admin of their company). */
export function getPersonExport(id: number): Promise<PersonExport> {
  return rpc(client.users[':id'].export.$get({ param: { id: String(id) } }));
}

/** POST /users/{id}/erase: name, email, phone and password removed; bookings kept as "Deleted customer". */
export function erasePerson(id: number): Promise<Erasure> {
  return rpc(client.users[':id'].erase.$post({ param: { id: String(id) } }));
}

/** The file name the download gets: the person's id and the day it was taken. */
export function exportFileName(data: PersonExport): string {
  return `bookwell-data-${data.profile.id}-${data.exported_at.slice(0, 10)}.json`;
}
