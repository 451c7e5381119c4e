// What the Add employee / Add customer form says when the server refuses (docs/product/08-errors.md).
import { isApiError } from '../../lib/api-errors.ts';
import type { PersonKind } from '../../data/users.ts';

export const ADD_FAILED: Record<PersonKind, string> = {
  employee: 'Failed to add employee',
  customer: 'Failed to add customer',
};

/** The server's `error` field when it sent one, else the fallback. */
export function addPersonError(kind: PersonKind, err: unknown): string {
  const fromServer = isApiError(err) ? err.body?.error : undefined;
  return typeof fromServer === 'string' && fromServer ? fromServer : ADD_FAILED[kind];
}
