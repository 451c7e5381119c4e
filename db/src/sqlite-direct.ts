// SQLite statements of an open transaction run on the connection at once (docs/decisions/42-sqlite-statements-in-a-transaction.md).
//
// better-sqlite3 answers synchronously, but a statement sent through Kysely still passes its query
// executor and connection provider: half a dozen async functions and their promises around a call
// that has already returned. Inside a transaction that is pure cost: on SQLite the transaction holds
// the one connection from its begin (or its savepoint in a group, db/src/group-commit.ts) to its end,
// Kysely's single-connection provider only orders the transaction's own statements, and those run one
// after another anyway. A booking sends about fourteen statements in its transaction: going straight
// to the connection took its server CPU over 20 companies from 0.82-0.98 ms to 0.71-0.84 ms
// (alternated, docs/benchmarks.md, session 31).
//
// So the queries compiled once (`prepared`, `preparedWrite`, `readTogether`, `deferredWrite`) run a
// transaction's statement on the connection directly, the way Kysely's SQLite connection itself
// does (`reader` statements answer rows, the others run). Outside a transaction nothing changes: a
// statement must wait for the connection (another request's transaction, or a group not yet
// committed, holds it), which is what Kysely's driver does. PostgreSQL is not concerned.
import type { CompiledQuery } from 'kysely';
import type { DbOrTx } from './schema.ts';

/** What the dialect's database offers: better-sqlite3 through the statement cache (connect.ts). */
interface StatementSource {
  prepare(sql: string): { reader: boolean; all(params: readonly unknown[]): unknown[]; run(params: readonly unknown[]): unknown };
}

/** The SQLite database behind each SQLite dialect's adapter (one adapter per Kysely instance, shared by its transactions). */
const databases = new WeakMap<object, StatementSource>();

/** Lets transactions of the Kysely instance using `adapter` run their compiled statements on `database` directly. */
export function runTransactionsDirectly(adapter: object, database: StatementSource): void {
  databases.set(adapter, database);
}

/**
 * Runs the statement now and answers its rows, when `db` is an open SQLite transaction without
 * plugins; undefined otherwise (the caller goes through Kysely).
 */
export function rowsInTransaction<Row>(db: DbOrTx, compiled: CompiledQuery): Row[] | undefined {
  if (!db.isTransaction) return undefined;
  const executor = db.getExecutor();
  const database = databases.get(executor.adapter);
  if (!database || executor.plugins.length > 0) return undefined;
  const statement = database.prepare(compiled.sql);
  if (statement.reader) return statement.all(compiled.parameters) as Row[];
  statement.run(compiled.parameters);
  return [];
}
