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
}

export class ChangeStampedCache {
  private readonly entries = new Map<string, Entry>();
  /** Answers served from here, and questions that had to be computed (for tests and profiling). */
  hits = 0;
  misses = 0;

  /** `limit`: entries kept at most; the least recently used goes first. */
  constructor(private readonly limit = 10_000) {}

  /** The cached JSON body of `key` if it was computed at `stamp` and its time has not come. */
  get(key: string, stamp: string | number, nowMs: number): string | undefined {
    const e = this.entries.get(key);
    if (!e) {
      this.misses++;
      return undefined;
    }
    if (e.stamp !== stamp || nowMs >= e.validUntil) {
      this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last: a popular booking page outlives the long tail of rarely asked ones.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.body;
  }

  /**
   * Keeps an answer computed from reads made after `stamp` was read. A write committed meanwhile
   * moved the stamp past it, so such an entry is only ever refused by the next `get`, never served.
   */
  set(key: string, stamp: string | number, body: string, validUntil: number, nowMs: number): void {
    if (!(validUntil > nowMs)) return;
    this.entries.delete(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { stamp, body, validUntil });
  }

  get size(): number {
    return this.entries.size;
  }
}
