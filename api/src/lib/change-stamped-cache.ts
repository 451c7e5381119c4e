// Answers kept only while they are certainly still right: until the database's change stamp moves
// (any write, by this process or another; SQLite's data_version) and until each entry's own deadline,
// which the caller sets to the first instant the clock alone could change that answer. Bodies are
// JSON text, so an answer served from here is not serialised again.

interface Entry {
  body: string;
  validUntil: number;
}

export class ChangeStampedCache {
  private readonly entries = new Map<string, Entry>();
  private seen: string;

  constructor(
    private readonly changeStamp: () => string,
    private readonly limit = 5000,
  ) {
    this.seen = changeStamp();
  }

  /** The database's state now: pass it to `set` for an answer computed from reads made after this. */
  stamp(): string {
    const now = this.changeStamp();
    if (now !== this.seen) {
      this.entries.clear();
      this.seen = now;
    }
    return now;
  }

  /** The cached JSON body of `key`, if the database has not changed since and its time has not come. */
  get(key: string, nowMs: number): string | undefined {
    this.stamp();
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (nowMs >= e.validUntil) {
      this.entries.delete(key);
      return undefined;
    }
    return e.body;
  }

  /** Keeps an answer computed from reads made after `stamp` was taken, unless something was written meanwhile. */
  set(key: string, stamp: string, body: string, validUntil: number, nowMs: number): void {
    if (this.stamp() !== stamp || !(validUntil > nowMs)) return;
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { body, validUntil });
  }

  get size(): number {
    return this.entries.size;
  }
}
