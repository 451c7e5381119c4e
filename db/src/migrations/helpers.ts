// Column helpers for migrations, so one migration file creates the same tables on both dialects.
// Migrations may use these only in ways that keep older migrations' meaning unchanged.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-generated integer primary key named `id`. */
export function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** A timestamp column: timestamptz on PostgreSQL, ISO text on SQLite. */
export function timestampType(db: Kysely<any>) {
  return isPostgres(db) ? sql`timestamptz` : sql`text`;
}

export function nowDefault(db: Kysely<any>) {
  return isPostgres(db) ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
}

export type ColumnOptions = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
