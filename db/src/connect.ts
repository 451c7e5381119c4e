// Opens the database named by DATABASE_URL (SQLite file or PostgreSQL) as one Kysely instance.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  type DialectAdapter,
  type PostgresPool,
  type PostgresPoolClient,
  type Driver,
  type MigrationResultSet,
  type SqliteDatabase,
} from 'kysely';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { statementName } from './statement-names.ts';
import { batchingClient } from './deferred-writes.ts';
import { pgTimestamptzToIso } from './time.ts';
import { BACKSTOP_PAGES, startCheckpointer } from './checkpointer.ts';
import { walCommitStamp } from './commit-stamp.ts';
import { forgetRememberedGenerations, skipGenerationReadsWhileUnchanged } from './availability-generation.ts';
import { shareReadsPerRound } from './round-batch.ts';
import { ImmediateSqliteDriver, type GroupCommit } from './group-commit.ts';
import { runTransactionsDirectly } from './sqlite-direct.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Human-readable location without credentials, for logs. */
  describe: string;
  /**
   * SQLite file only: changes with every commit, by this connection or any other, in any process
   * (db/src/commit-stamp.ts); null when it cannot be told. PostgreSQL has no such stamp.
   */
  commitStamp?: () => string | null;
  /**
   * SQLite: `listener` runs when a group commit failed (db/src/group-commit.ts). Its transactions'
   * callers get the error, but answers computed from what they wrote, while it was still open, are
   * wrong: caches drop everything then.
   */
  onLostCommit?: (listener: () => void) => void;
  close(): Promise<void>;
}

/**
 * SQLite does run DDL inside transactions. Saying so makes Kysely's migrator run the pending
 * migrations in one (immediate) transaction, which is the migration lock between processes: two
 * processes starting together on a new file queue on the write lock instead of both creating tables.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    const adapter = new TransactionalDdlSqliteAdapter();
    // A transaction's compiled statements run on the connection it holds (db/src/sqlite-direct.ts).
    runTransactionsDirectly(adapter, this.sqliteConfig.database as SqliteDatabase);
    return adapter;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.sqliteConfig, this.sqlite, this.grouping, this.onLost);
  }
  constructor(
    private readonly sqliteConfig: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly sqlite: SQLite.Database,
    private readonly grouping: GroupCommit,
    private readonly onLost: () => void,
  ) {
    super(sqliteConfig);
  }
}

/**
 * Kysely prepares a statement for every query, and better-sqlite3 compiles SQL on each prepare(),
 * which cost about as much as running the hot availability queries themselves. The same SQL text
 * reuses its compiled statement (SQLite re-prepares it by itself after a schema change); a statement
 * still being iterated by a stream is never handed out twice.
 */
export function withStatementCache(sqlite: SQLite.Database, limit = 1000): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const stmt = sqlite.prepare(sql);
      if (!cached) {
        if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
const NUMERIC_OID = 1700;

export function sqlitePathFromUrl(url: string): string {
  if (url === ':memory:' || url === 'file::memory:') return ':memory:';
  return url.replace(/^file:(\/\/)?/, '').replace(/^sqlite:(\/\/)?/, '');
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/**
 * The pool as Kysely sees it, with the prepared queries' texts (db/src/prepared.ts) sent as named
 * statements: PostgreSQL parses and plans each once per connection, then only binds and executes.
 * Each checked-out client holds an open transaction's `begin` and deferred writes for its next
 * statement (db/src/deferred-writes.ts), and runs what its connection has prepared by name there.
 */
function namingPool(pool: pg.Pool, onRoundTrip?: (sql: string) => void): PostgresPool {
  /** Per connection, the statement names it has prepared: each one's first run with its name succeeded. */
  const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
  return {
    async connect() {
      const client = await pool.connect();
      let prepared = preparedOn.get(client);
      if (!prepared) preparedOn.set(client, (prepared = new Set()));
      const known = prepared;
      const send = async (text: unknown, values?: unknown[]) => {
        const name = typeof text === 'string' ? statementName(text) : undefined;
        if (!name) return client.query(text as string, values);
        const result = await client.query({ name, text: text as string, values });
        known.add(name);
        return result;
      };
      const batching = batchingClient(send, onRoundTrip, {
        nameOf(sql) {
          const name = statementName(sql);
          return name === undefined ? undefined : known.has(name) ? name : null;
        },
      });
      return {
        query: batching.query as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

export interface ConnectOptions {
  /** PostgreSQL: connections in the pool. */
  poolSize?: number;
  /** SQLite file: checkpoint the WAL on a worker thread (db/src/checkpointer.ts); the server's connection. */
  backgroundCheckpoints?: boolean;
  /** PostgreSQL: called with the text of every message sent to the server (tests count round trips). */
  onRoundTrip?: (sql: string) => void;
  /** SQLite: when the transactions of one event-loop turn share one commit (db/src/group-commit.ts). Default 'when-busy'. */
  groupCommit?: GroupCommit;
}

export function connect(url: string, options: ConnectOptions = {}): DatabaseHandle {
  if (isPostgresUrl(url)) {
    // Same value shapes as SQLite: timestamps as ISO strings, counts as numbers.
    const types = {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        if (oid === TIMESTAMPTZ_OID) return pgTimestamptzToIso;
        if (oid === TIMESTAMP_OID) return (v: string) => new Date(v).toISOString();
        if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
        return pg.types.getTypeParser(oid, format);
      },
    };
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types });
    pool.on('error', (err) => console.error('postgres pool error:', err.message));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namingPool(pool, options.onRoundTrip) }) });
    shareReadsPerRound(db);
    const u = new URL(url);
    return { db, dialect: 'postgres', describe: `postgres://${u.host}${u.pathname}`, close: () => db.destroy() };
  }
  const file = sqlitePathFromUrl(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Content a write deletes or replaces is zeroed in its page, not left in free space: an erased
  // customer's details must not stay readable in the file or a copy of it
  // (docs/decisions/32-privacy-and-operations.md). FAST does it only where no extra I/O follows.
  sqlite.pragma('secure_delete = FAST');
  // A grouped transaction's savepoint keeps the pages it changes again in a sub-journal, a temporary
  // file once past 64 KiB: kept in memory, a booking's inserts cost half as much inside a group
  // (db/src/group-commit.ts). Sorts and temporary tables of the bounded reads here stay small.
  sqlite.pragma('temp_store = MEMORY');
  const lostListeners: (() => void)[] = [];
  const onLost = () => {
    // What was read inside a group whose commit failed never became true: nothing remembered from it stays.
    forgetRememberedGenerations(db);
    for (const listener of lostListeners) listener();
  };
  const dialect = new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }, sqlite, options.groupCommit ?? 'when-busy', onLost);
  const db: Kysely<Database> = new Kysely<Database>({ dialect });
  const stamp = file === ':memory:' ? null : walCommitStamp(path.resolve(file));
  // Availability's generation reads are skipped while nothing commits (availability-generation.ts).
  if (stamp) skipGenerationReadsWhileUnchanged(db, () => stamp.read());
  const checkpointer = options.backgroundCheckpoints && file !== ':memory:' ? startCheckpointer(file) : null;
  if (checkpointer) sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  return {
    db,
    dialect: 'sqlite',
    describe: `sqlite:${file}`,
    commitStamp: stamp ? () => stamp.read() : undefined,
    onLostCommit: (listener) => lostListeners.push(listener),
    async close() {
      await checkpointer?.stop();
      await db.destroy();
      stamp?.close();
    },
  };
}

/** Brings the schema up to date. Safe to call at every start and from several processes at once. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    // A migration added later with an earlier date prefix still runs on databases that are ahead.
    allowUnorderedMigrations: true,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

/** How many of this code's migrations the database has not run (0: current), for the readiness check. */
export async function pendingMigrations(handle: DatabaseHandle): Promise<number> {
  const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).length;
}
