// Liveness, readiness and metrics: whether this process can reach its database, and whether it
// should be sent traffic (docs/decisions/32-privacy-and-operations.md).
import { sql } from 'kysely';
import { pendingMigrations, type DbOrTx } from '@bookwell/db';
import type { AppDeps } from '../../lib/context.ts';
import { bearerToken } from '../../lib/auth.ts';

export async function databaseReachable(db: DbOrTx): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export type Readiness = { ready: true } | { ready: false; reason: 'starting' | 'stopping' | 'database' | 'migrations' };

/** Once seen current, the migrations stay current for this process (they only ever go forward). */
const migrationsCurrent = new WeakSet<object>();

export async function readiness(deps: Pick<AppDeps, 'db' | 'database' | 'lifecycle'>): Promise<Readiness> {
  if (deps.lifecycle.state !== 'ready') return { ready: false, reason: deps.lifecycle.state };
  if (!(await databaseReachable(deps.db))) return { ready: false, reason: 'database' };
  if (!migrationsCurrent.has(deps.database)) {
    const pending = await pendingMigrations(deps.database).catch(() => -1);
    if (pending !== 0) return { ready: false, reason: 'migrations' };
    migrationsCurrent.add(deps.database);
  }
  return { ready: true };
}

/** The metrics token compared in constant time; false when none is configured. */
export function metricsAuthorised(configured: string | undefined, header: string | undefined): boolean {
  if (!configured || !header) return false;
  // The scheme is matched without regard to case, as for the API's own bearer tokens.
  const given = bearerToken(header) ?? '';
  if (given.length !== configured.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ configured.charCodeAt(i);
  return diff === 0;
}
