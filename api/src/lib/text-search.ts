// Case-insensitive "contains" search on text columns, the same on SQLite and PostgreSQL.
import { sql, type Expression, type SqlBool } from 'kysely';

/** `%text%`, lower-cased, with the caller's own %, _ and \ matching themselves. */
export function containsPattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * True when any of the columns contains the text, ignoring case. SQLite's lower() folds ASCII
 * letters only, so there accented capitals match only themselves.
 */
export function anyContains(columns: string[], search: string): Expression<SqlBool> {
  const pattern = containsPattern(search);
  const parts = columns.map((col) => sql<SqlBool>`lower(${sql.ref(col)}) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
