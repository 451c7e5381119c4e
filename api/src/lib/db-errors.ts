// Recognises database errors that mean "bad input" rather than "server broken", on both dialects.
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Runs `work` and turns a unique-index violation into the caller's error: two requests racing for
 * the same unique value (an email, a duration) get the answer a late request would get.
 */
export async function uniqueOr<T>(work: () => Promise<T>, error: () => Error): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw error();
    throw err;
  }
}
