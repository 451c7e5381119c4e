// SQLite group commit (docs/decisions/35-sqlite-group-commit.md). A commit in WAL mode writes every
// page its transaction changed to the log, about 27 for a booking (the appointment, its indexes,
// the customer, the emails, the audit rows, the sync change, the generation), and that write was
// the largest single cost of a booking. Here, while requests queue (see worthGrouping), the
// transactions of one event-loop turn share one BEGIN IMMEDIATE ... COMMIT, each in its own
// savepoint: a page that several of them change (an index's last leaf, the audit log's, the
// outbox's) goes to the log once, and the fixed costs of a commit are paid once. Nobody is told
// before the commit: whoever used the connection while the turn's transaction was open (a
// transaction, or a statement that saw its changes) resumes only once it has committed, and fails
// with it if the commit fails.
import { CompiledQuery, SqliteDriver, type DatabaseConnection } from 'kysely';
import type SQLite from 'better-sqlite3';

/**
 * 'when-busy': transactions are grouped while recent event-loop turns held several (requests wait
 * in the same turn), and commit alone otherwise; 'always' groups every turn's (tests); 'off' never.
 */
export type GroupCommit = 'when-busy' | 'always' | 'off';

interface Batch {
  done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/** Transactions per event-loop turn (a moving average over the turns that had any) from which a group pays. */
const WORTH_GROUPING = 2;
/** Weight of the latest turn in that average. */
const LATEST = 0.2;

const BEGIN = CompiledQuery.raw('begin immediate');
const SAVEPOINT = CompiledQuery.raw('savepoint bw_tx');
const RELEASE = CompiledQuery.raw('release bw_tx');
const ROLLBACK_TO = CompiledQuery.raw('rollback to bw_tx');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * SQLite's default BEGIN is deferred: two writers could both read, then one fails to upgrade its
 * lock. BEGIN IMMEDIATE takes the write lock first, so a transaction that re-checks availability
 * and then inserts is serialised against every other writer (also in other processes). Grouped,
 * the turn's transactions share it (above); alone, each has its own.
 */
export class ImmediateSqliteDriver extends SqliteDriver {
  private batch: Batch | null = null;
  /** The current holder of the connection used it while a batch was open. */
  private sawBatch = false;
  /** The transaction running now has its own BEGIN ... COMMIT (not grouped). */
  private alone = false;
  /** Transactions begun in this turn, and the moving average of that count over the turns that had any. */
  private thisTurn = 0;
  private perTurn = 1;

  constructor(
    config: ConstructorParameters<typeof SqliteDriver>[0],
    private readonly sqlite: SQLite.Database,
    private readonly grouping: GroupCommit,
    /** Called when a group's commit failed: what was read inside it never became true. */
    private readonly onLost: () => void,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.sawBatch = this.batch !== null;
    return connection;
  }

  override async releaseConnection(): Promise<void> {
    const wait = this.sawBatch && this.batch ? this.batch.done : null;
    // The connection goes back first: the rest of the turn's transactions join the same commit.
    await super.releaseConnection();
    if (wait) await wait;
  }

  /**
   * Counts the transactions of this turn, and says whether recent turns held several: then the
   * requests of a turn do wait behind each other and a group pays; one transaction a turn (a quiet
   * or moderately used server) commits at once, with no wait for the turn's end.
   */
  private worthGrouping(): boolean {
    if (this.thisTurn++ === 0) {
      setImmediate(() => {
        this.perTurn += LATEST * (this.thisTurn - this.perTurn);
        this.thisTurn = 0;
      });
    }
    return this.perTurn >= WORTH_GROUPING;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // Counted for every transaction, grouped or not; an open group is always joined.
    this.alone = this.grouping === 'off' || (this.grouping === 'when-busy' && !this.worthGrouping() && !this.batch);
    if (this.alone) {
      await connection.executeQuery(BEGIN);
      return;
    }
    // SQLite rolls a whole transaction back by itself on some errors (a full disk, an I/O error):
    // that batch is lost, and must not be committed under the next one's name.
    if (this.batch && !this.sqlite.inTransaction) this.fail(this.batch, new Error('SQLite rolled the transaction back'));
    if (!this.batch) {
      await connection.executeQuery(BEGIN);
      const batch = newBatch();
      this.batch = batch;
      setImmediate(() => void this.flush(batch));
    }
    this.sawBatch = true;
    await connection.executeQuery(SAVEPOINT);
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(this.alone ? COMMIT : RELEASE);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.alone) {
      await connection.executeQuery(ROLLBACK);
      return;
    }
    // Already rolled back whole by SQLite: the batch fails at its commit (or at the next begin).
    if (!this.sqlite.inTransaction) return;
    await connection.executeQuery(ROLLBACK_TO);
    await connection.executeQuery(RELEASE);
  }

  override async destroy(): Promise<void> {
    if (this.batch) await this.flush(this.batch);
    await super.destroy();
  }

  private fail(batch: Batch, error: unknown) {
    if (this.batch === batch) this.batch = null;
    batch.reject(error);
    this.onLost();
  }

  /** Commits the batch once the turn's transactions are done (after any that holds the connection). */
  private async flush(batch: Batch): Promise<void> {
    const connection = await super.acquireConnection();
    try {
      if (this.batch !== batch) return;
      this.batch = null;
      if (!this.sqlite.inTransaction) throw new Error('SQLite rolled the transaction back');
      try {
        await connection.executeQuery(COMMIT);
      } catch (error) {
        // A failed COMMIT can leave the transaction open (a deferred constraint): end it.
        if (this.sqlite.inTransaction) await connection.executeQuery(ROLLBACK);
        throw error;
      }
      batch.resolve();
    } catch (error) {
      this.fail(batch, error);
    } finally {
      await super.releaseConnection();
    }
  }
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  // Rejections reach every waiter; one nobody waits for is not an unhandled error.
  done.catch(() => undefined);
  return { done, resolve, reject };
}
