// Answers kept only while they are certainly still right (docs/decisions/28-availability-generation.md):
// each entry carries the stamp of the state it was computed from (for availability, its company's
// generation, which the database moves with every write that can change the answer) and its own
// deadline, the first instant the clock alone could change it. A reader passes the stamp it has just
// read; an entry with another stamp is stale and never served. Stamps are per entry, so one
// company's write leaves every other company's answers in place. Bodies are JSON text, so an answer
// served from here is not serialised again.

interface Entry {
  stamp: string | number;
  body: string;
  validUntil: number;
  /** Served since it was last passed over for eviction (see set). */
  used: boolean;
}

export class ChangeStampedCache {
  private readonly entries = new Map<string, Entry>();
  /** UTF-16 code units held in bodies and keys (about the bytes V8 keeps for them). */
  private chars = 0;
  /** Answers served from here, and questions that had to be computed (for tests and profiling). */
  hits = 0;
  misses = 0;

  /**
   * `limit`: entries kept at most; `maxChars`: their bodies and keys in characters at most (a
   * 30-day dates answer of a large company is tens of kilobytes, so the count alone would let 10,000
   * of them hold hundreds of megabytes). The least recently used goes first, nearly (see set).
   */
  constructor(
    private readonly limit = 10_000,
    private readonly maxChars = 16 * 2 ** 20,
  ) {}

  /** The cached JSON body of `key` if it was computed at `stamp` and its time has not come. */
  get(key: string, stamp: string | number, nowMs: number): string | undefined {
    const e = this.entries.get(key);
    if (!e) {
      this.misses++;
      return undefined;
    }
    if (e.stamp !== stamp || nowMs >= e.validUntil) {
      this.remove(key, e);
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Only marked: moving the entry to the end at every hit (a delete and a set of the Map) was 3-4%
    // of the CPU of a cached answer, the server's most frequent one.
    e.used = true;
    return e.body;
  }

  /**
   * Keeps an answer computed from reads made after `stamp` was read. A write committed meanwhile
   * moved the stamp past it, so such an entry is only ever refused by the next `get`, never served.
   */
  set(key: string, stamp: string | number, body: string, validUntil: number, nowMs: number): void {
    if (!(validUntil > nowMs)) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const size = key.length + body.length;
    if (size > this.maxChars) return;
    // The oldest goes first, unless it was served since it was last looked at here: then it moves to
    // the end unmarked (a second chance), so a popular booking page outlives the long tail of rarely
    // asked ones. Each entry moves at most once a pass, so the loop ends.
    while (this.entries.size && (this.entries.size >= this.limit || this.chars + size > this.maxChars)) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      if (oldest.used) {
        oldest.used = false;
        this.entries.delete(oldestKey);
        this.entries.set(oldestKey, oldest);
      } else {
        this.remove(oldestKey, oldest);
      }
    }
    this.entries.set(key, { stamp, body, validUntil, used: false });
    this.chars += size;
  }

  private remove(key: string, e: Entry): void {
    this.entries.delete(key);
    this.chars -= key.length + e.body.length;
  }

  /** Drops every answer (a SQLite group commit failed: db/src/group-commit.ts). */
  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  /** Characters held in keys and bodies (bounded by `maxChars`). */
  get heldChars(): number {
    return this.chars;
  }

  get size(): number {
    return this.entries.size;
  }
}
