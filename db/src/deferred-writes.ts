// Fewer round trips per PostgreSQL transaction (docs/decisions/34-batched-round-trips.md).
//
// A booking's transaction wrote eleven rows one statement at a time, and each statement was a round
// trip to PostgreSQL: a socket write, a wait, a parse of the answer. Most of those rows are written and
// never looked at again by the transaction (its audit entry, its sync change, its messages), so their
// statements need not go out when they are issued, only before anything that could see them.
//
// Two halves:
// - callers mark such a statement as a deferred write (`deferredWrite`, `preparedWrite`): a plain
//   insert whose result nobody reads and whose failure nobody catches where it was issued;
// - the PostgreSQL connection (`batchingClient`, used by connect.ts) holds `begin` and the deferred
//   writes of an open transaction, and sends them in the same message as the next statement, whatever
//   it is: one round trip for all of them, run in order before it, so every later statement sees them
//   exactly as if each had gone out on its own. A failure among them fails that statement (and the
//   transaction); `rollback` drops them unsent.
//
// Sending several statements in one message takes PostgreSQL's simple query protocol, which has no
// parameters, so their values are written into the text as literals: node-postgres's own
// `prepareValue`, then `quoteLiteral` (the text of its `escapeLiteral`; the value the extended
// protocol would send for each parameter). A statement that cannot be written so (a comment, a
// backslash or a dollar quote in its SQL, a binary value) is sent on its own with its parameters, as
// before. SQLite has no round trips: there every write runs at once. A statement the connection has
// already prepared under its name goes into such a text as `execute name(literals)`, keeping its plan
// instead of being parsed and planned again (docs/decisions/41-named-statements-in-shared-messages.md).
//
// Kysely runs a transaction's statements one after another (its single-connection provider awaits
// each before starting the next), so reads asked for together in a Promise.all still reach the
// connection one at a time. Reads whose arguments are all known at once are sent together by
// `readTogether`: one text of several statements, whose results the connection answers as one list
// per statement (docs/decisions/40-appointment-id-with-the-lock.md).
import { CompiledQuery, PostgresAdapter, type Compilable } from 'kysely';
import pgUtils from 'pg/lib/utils.js';
import type { DbOrTx } from './schema.ts';
import { rowsInTransaction } from './sqlite-direct.ts';

/** Prefixed to a deferred write's SQL (PostgreSQL only); the connection strips it. */
export const DEFER_MARK = '/*bw:deferred*/';

/** The statement with the deferred mark, when this runs on PostgreSQL (SQLite runs every write at once). */
export function markDeferred(db: DbOrTx, compiled: CompiledQuery): CompiledQuery {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return compiled;
  return { ...compiled, sql: DEFER_MARK + compiled.sql };
}

/**
 * Runs an insert whose result the caller does not need, as late as correctness allows: on
 * PostgreSQL, inside a transaction, it goes out with the transaction's next statement.
 */
export async function deferredWrite(db: DbOrTx, query: Compilable<unknown> | CompiledQuery): Promise<void> {
  const compiled = 'compile' in query ? query.compile() : query;
  // Undefined unless it ran on SQLite's direct path (a write answers no rows): then Kysely runs it.
  if (rowsInTransaction(db, compiled) === undefined) await db.executeQuery(markDeferred(db, compiled));
}

/** The SQL of several reads sent as one message (readTogether), with their count; the queries are its values. */
const TOGETHER_MARK = '/*bw:together:';

/**
 * Runs reads that do not depend on one another, in order, and answers each one's rows. On PostgreSQL
 * they go out in one message (with whatever writes the transaction holds before them): each
 * statement still takes its own snapshot, as when sent one by one. A read that cannot be written
 * into that message (`partOf` in batchingClient) makes them go one by one, as does SQLite,
 * which has no round trips.
 */
export async function readTogether<const T extends readonly CompiledQuery[]>(
  db: DbOrTx,
  reads: T,
): Promise<{ -readonly [K in keyof T]: T[K] extends CompiledQuery<infer R> ? R[] : never }> {
  type Answer = { -readonly [K in keyof T]: T[K] extends CompiledQuery<infer R> ? R[] : never };
  if (reads.length > 1 && db.getExecutor().adapter instanceof PostgresAdapter) {
    const result = await db.executeQuery(CompiledQuery.raw(`${TOGETHER_MARK}${reads.length}*/`, [...reads]));
    return result.rows as unknown as Answer;
  }
  const out: unknown[][] = [];
  for (const q of reads) out.push(rowsInTransaction(db, q) ?? (await db.executeQuery(q)).rows);
  return out as unknown as Answer;
}

type QueryResult = { command: string; rowCount: number | null; rows: unknown[] };
/** What a held statement answers at once: no rows (the caller reads none). */
const HELD: QueryResult = Object.freeze({ command: 'INSERT', rowCount: 0, rows: [] as unknown[] }) as QueryResult;

/**
 * The statement with its parameters written in as literals, or null when that cannot be done safely.
 * Placeholders are replaced outside quoted strings and identifiers only; SQL with a backslash, a
 * comment or a dollar-quoted string, or a binary value, is left to the extended protocol.
 */
export function inlineParameters(sql: string, values: readonly unknown[] | undefined): string | null {
  if (!values?.length) return sql;
  if (/\\|--|\/\*|\$[A-Za-z_$]/.test(sql)) return null;
  const literals = literalsOf(values);
  if (literals === null) return null;
  // The text is copied in runs between placeholders, not a character at a time: a booking's
  // messages carry kilobytes of email body, and a string grown one character at a time costs an
  // object per character (docs/decisions/34-batched-round-trips.md).
  let out = '';
  let copiedTo = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql.charCodeAt(i);
    if (c === QUOTE || c === DOUBLE_QUOTE) {
      // A quoted string or identifier, copied as it is (a doubled quote stays inside it).
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(sql[i], j);
        if (k < 0) return null;
        if (sql.charCodeAt(k + 1) === c) j = k + 2;
        else {
          j = k + 1;
          break;
        }
      }
      i = j;
    } else if (c === DOLLAR) {
      let j = i + 1;
      let n = 0;
      for (; j < sql.length && j - i < 12; j++) {
        const d = sql.charCodeAt(j) - ZERO;
        if (d < 0 || d > 9) break;
        n = n * 10 + d;
      }
      const literal = j > i + 1 ? literals[n - 1] : undefined;
      if (literal === undefined) return null;
      out += sql.slice(copiedTo, i) + literal;
      i = copiedTo = j;
    } else i++;
  }
  return copiedTo === 0 ? sql : out + sql.slice(copiedTo);
}

/** The values as PostgreSQL literals, as the extended protocol would send them; null when one is binary. */
function literalsOf(values: readonly unknown[]): string[] | null {
  const literals: string[] = [];
  for (const v of values) {
    const prepared: unknown = pgUtils.prepareValue(v);
    if (prepared === null) literals.push('null');
    else if (typeof prepared === 'string') literals.push(quoteLiteral(prepared));
    else return null;
  }
  return literals;
}

const QUOTE = 39;
const DOUBLE_QUOTE = 34;
const DOLLAR = 36;
const ZERO = 48;

/**
 * node-postgres's escapeLiteral, the same text, without building it a character at a time: quotes
 * and backslashes doubled, and the E'' form when there is a backslash.
 */
function quoteLiteral(value: string): string {
  const quoted = value.includes("'") ? value.replaceAll("'", "''") : value;
  if (!value.includes('\\')) return `'${quoted}'`;
  return ` E'${quoted.replaceAll('\\', '\\\\')}'`;
}

export interface QueryClient {
  query(text: unknown, values?: unknown[]): Promise<unknown>;
}

/**
 * What a connection has prepared under a name (connect.ts): PostgreSQL keeps each prepared
 * statement's plan, and a text of several statements can run it with `execute name(values)` instead
 * of carrying the statement's text to be parsed and planned again
 * (docs/decisions/41-named-statements-in-shared-messages.md).
 */
export interface NamedStatements {
  /**
   * The statement's name when this connection has prepared it; null for a named statement it has
   * not prepared yet (sent on its own once, with its name, which prepares it); undefined for SQL
   * that has no name.
   */
  nameOf(sql: string): string | null | undefined;
}

/** One statement of a message: its text, and for one run by name, the SQL and values it stands for. */
interface Part {
  text: string;
  sql?: string;
  values?: readonly unknown[];
}

/** The observer's view of a message: a statement run by name shown as its SQL with its values written in. */
function shown(parts: readonly Part[]): string {
  return parts.map((p) => (p.sql === undefined ? p.text : (inlineParameters(p.sql, p.values) ?? p.sql))).join(';\n');
}

/**
 * The transaction-aware side of a pooled PostgreSQL client: holds `begin` and deferred writes while a
 * transaction is open and sends them with the next statement. `send` runs one statement with its
 * parameters (named or not, connect.ts decides), or a text of several (and answers each one's
 * result). `onRoundTrip` sees each message, a statement run by name shown as its SQL with its values.
 */
export function batchingClient(send: QueryClient['query'], onRoundTrip?: (sql: string) => void, named?: NamedStatements): QueryClient {
  let inTransaction = false;
  /** Statements held back, their values written in ('begin' first when not yet sent). */
  let held: Part[] = [];

  /**
   * The statement as one part of a text of several, or null when it must go on its own with its
   * parameters: run by name when this connection has prepared it (its plan kept), else its SQL with
   * its values written in as literals (inlineParameters).
   */
  const partOf = (sql: string, values: readonly unknown[] | undefined): Part | null => {
    const name = named?.nameOf(sql);
    if (name === null) return null;
    if (name === undefined) {
      const text = inlineParameters(sql, values);
      return text === null ? null : { text };
    }
    if (!values?.length) return { text: `execute ${name}`, sql, values };
    const literals = literalsOf(values);
    return literals === null ? null : { text: `execute ${name}(${literals.join(', ')})`, sql, values };
  };
  /** Sends the parts as one text; answers every statement's result, in order. */
  const sendParts = async (parts: readonly Part[]): Promise<QueryResult[]> => {
    if (onRoundTrip) onRoundTrip(shown(parts));
    const result = (await send(parts.length === 1 ? parts[0].text : parts.map((p) => p.text).join(';\n'))) as QueryResult | QueryResult[];
    return Array.isArray(result) ? result : [result];
  };
  const direct = (text: string, values?: readonly unknown[]) => {
    onRoundTrip?.(text);
    return send(text, values as unknown[]) as Promise<QueryResult>;
  };
  const flush = async () => {
    if (!held.length) return;
    const parts = held;
    held = [];
    await sendParts(parts);
  };
  /** The held statements and this one in one message; answers the last one's result. */
  const withHeld = async (part: Part) => {
    const parts = [...held, part];
    held = [];
    const results = await sendParts(parts);
    return results[results.length - 1];
  };

  return {
    async query(text: unknown, values?: unknown[]) {
      // A cursor or a query object: whatever is held goes first, on its own.
      if (typeof text !== 'string') {
        await flush();
        return send(text, values);
      }
      if (text.startsWith(TOGETHER_MARK)) {
        // Several reads (readTogether): each one's rows, in order, after what was held.
        const reads = values as unknown as CompiledQuery[];
        const parts: Part[] = [];
        for (const q of reads) {
          const part = partOf(q.sql, q.parameters);
          if (part === null) break;
          parts.push(part);
        }
        let rows: unknown[][];
        if (parts.length === reads.length) {
          const all = [...held, ...parts];
          held = [];
          rows = (await sendParts(all)).slice(-reads.length).map((r) => r.rows);
        } else {
          // One of them cannot go in a shared text (or is to be prepared first): each on its own.
          await flush();
          rows = [];
          for (const q of reads) rows.push((await direct(q.sql, q.parameters)).rows);
        }
        return { command: 'SELECT', rowCount: null, rows };
      }
      if (text === 'begin' && !inTransaction) {
        inTransaction = true;
        held = [{ text: 'begin' }];
        return HELD;
      }
      if (text.startsWith(DEFER_MARK)) {
        const sql = text.slice(DEFER_MARK.length);
        const part = inTransaction ? partOf(sql, values) : null;
        if (part === null) {
          await flush();
          return direct(sql, values);
        }
        held.push(part);
        return HELD;
      }
      if (text === 'rollback' || text === 'commit') {
        const wasHeld = held;
        held = [];
        inTransaction = false;
        // Nothing reached the server (begin is still held): there is no transaction there to end.
        if (wasHeld[0]?.text === 'begin' && (text === 'rollback' || wasHeld.length === 1))
          return { command: text.toUpperCase(), rowCount: null, rows: [] };
        if (text === 'rollback') return direct(text);
        const results = await sendParts([...wasHeld, { text: 'commit' }]);
        return results[results.length - 1];
      }
      if (text.startsWith('start transaction')) inTransaction = true;
      if (!held.length) return direct(text, values);
      const part = partOf(text, values);
      if (part === null) {
        await flush();
        return direct(text, values);
      }
      return withHeld(part);
    },
  };
}
