// Queries built and compiled once, then run with new arguments: for the few reads on every request
// of the booking page and every booking, where building and compiling a Kysely query each time
// costs about as much as SQLite takes to answer it.
//
//   const staffMember = prepared<[companyId: number, userId: number], { id: number }>((db) =>
//     db.selectFrom('users').select('id').where('company_id', '=', arg(0)).where('id', '=', arg(1)));
//   const rows = await staffMember(db, [companyId, userId]);
//
// The query's shape is fixed at the first call; a query whose shape depends on its arguments (an IN
// list, an optional filter) is one prepared query per shape.
import { CompiledQuery, PostgresAdapter, type Compilable, type Kysely } from 'kysely';
import { nameStatement } from './statement-names.ts';
import { deferredWrite, markDeferred } from './deferred-writes.ts';
import { rowsInTransaction } from './sqlite-direct.ts';
import type { Database, DbOrTx } from './schema.ts';

const MARK = '\u0000bookwell-arg:';

/** Stands for the prepared query's argument number `index` (typed as the column's value). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default lets one placeholder stand in any column's place
export function arg<T = any>(index: number): T {
  return `${MARK}${index}` as T;
}

interface Template {
  compiled: CompiledQuery;
  /** Per compiled parameter: the argument index it takes, or -1 for a constant kept from the build. */
  slots: number[];
}

function compileTemplate(db: DbOrTx, build: (db: Kysely<Database>) => Compilable<unknown>, arity: number): Template {
  const compiled = build(db as Kysely<Database>).compile();
  const slots = compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(MARK) ? Number(p.slice(MARK.length)) : -1));
  // An argument Kysely wrote into the SQL text (instead of a parameter) would be run as a constant.
  if (compiled.sql.includes(MARK)) throw new Error(`prepared query inlines an argument: ${compiled.sql}`);
  for (let i = 0; i < arity; i++) {
    if (!slots.includes(i)) throw new Error(`prepared query does not use argument ${i}: ${compiled.sql}`);
  }
  // PostgreSQL: run as a named statement (db/src/statement-names.ts, used by connect.ts's pool).
  if (db.getExecutor().adapter instanceof PostgresAdapter) nameStatement(compiled.sql);
  return { compiled, slots };
}

function templateFor(
  templates: WeakMap<object, Template>,
  db: DbOrTx,
  build: (db: Kysely<Database>) => Compilable<unknown>,
  arity: number,
) {
  const adapter = db.getExecutor().adapter;
  let t = templates.get(adapter);
  if (!t) {
    t = compileTemplate(db, build, arity);
    templates.set(adapter, t);
  }
  return t;
}

function bind(t: Template, args: readonly unknown[]): CompiledQuery {
  const constants = t.compiled.parameters;
  return { ...t.compiled, parameters: t.slots.map((slot, i) => (slot === -1 ? constants[i] : args[slot])) };
}

/**
 * A query compiled once per dialect (transactions of one database share it) and run with the given
 * arguments; answers its rows.
 */
export function prepared<Args extends readonly unknown[], Row>(build: (db: Kysely<Database>) => Compilable<unknown>) {
  const templates = new WeakMap<object, Template>();
  const bound = (db: DbOrTx, args: Args) => bind(templateFor(templates, db, build, args.length), args) as CompiledQuery<Row>;
  const run = async (db: DbOrTx, args: Args): Promise<Row[]> => {
    const query = bound(db, args);
    return rowsInTransaction<Row>(db, query) ?? (await db.executeQuery<Row>(query)).rows;
  };
  /** The query with these arguments, not run: for readTogether (db/src/deferred-writes.ts). */
  run.bound = bound;
  return run;
}

/**
 * A prepared insert run as a deferred write (db/src/deferred-writes.ts): on PostgreSQL inside a
 * transaction it goes out with the transaction's next statement. Its result is not read.
 */
export function preparedWrite<Args extends readonly unknown[]>(build: (db: Kysely<Database>) => Compilable<unknown>) {
  const templates = new WeakMap<object, Template>();
  return (db: DbOrTx, args: Args): Promise<void> => deferredWrite(db, bind(templateFor(templates, db, build, args.length), args));
}

const GENERIC_PLANS = CompiledQuery.raw('set local plan_cache_mode = force_generic_plan');

/**
 * PostgreSQL: the rest of this transaction runs its statements on the plans their connection keeps
 * for them, planned once without their values, instead of planning each again with its values
 * (which PostgreSQL goes on doing for a statement whose kept plan it estimates costlier, and which
 * cost more than running the booking's reads). For transactions whose every statement reads or
 * writes through an index by its ids, as a booking's do; the query-plan tests check those plans
 * (docs/decisions/41-named-statements-in-shared-messages.md). Held like a deferred write: it costs
 * no message of its own. SQLite has no such choice.
 */
export async function keptPlans(trx: DbOrTx): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await trx.executeQuery(markDeferred(trx, GENERIC_PLANS));
}
