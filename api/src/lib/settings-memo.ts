// The company set-up the availability answers are computed from (the company row and service, who
// performs it, hours, date overrides, buffers), kept per process while the company's settings
// generation stands still (docs/decisions/28-availability-generation.md, "Settings generation").
// The database moves that counter in the same transaction as every write to those tables, and no
// booking moves it, so after a booking an answer is computed again from fresh appointments alone,
// and every answer reads the set-up as of a generation at least as new as the one it read first.
//
// This is not the answer cache (AVAILABILITY_CACHE): appointments are always read, and an answer is
// always computed. SETTINGS_MEMO=off reads the set-up on every request (for measuring).

/** Loads `key`'s value once per settings generation of the company the caller asked about. */
export type Remember = <T>(key: string, load: () => Promise<T>) => Promise<T>;

/** No memo: every read goes to the database. */
export const readEveryTime: Remember = (_key, load) => load();

interface Bucket {
  generation: number;
  values: Map<string, unknown>;
}

export class SettingsMemo {
  private readonly companies = new Map<number, Bucket>();
  private entries = 0;

  /**
   * `maxEntries`: values kept at most over all companies (the least recently asked company's go
   * first); each is a small read (a company row, a week of hours, a month of overrides), and the
   * largest, everyone's weekly hours, is one entry a company.
   */
  constructor(private readonly maxEntries = 20_000) {}

  /** The memo of one company at the settings generation just read: values loaded under an older one are dropped. */
  forCompany(companyId: number, generation: number): Remember {
    let bucket = this.companies.get(companyId);
    if (bucket && bucket.generation !== generation) {
      this.drop(companyId, bucket);
      bucket = undefined;
    }
    if (!bucket) bucket = { generation, values: new Map() };
    // Most recently asked last.
    this.companies.delete(companyId);
    this.companies.set(companyId, bucket);
    const b = bucket;
    return async <T>(key: string, load: () => Promise<T>): Promise<T> => {
      if (b.values.has(key)) return b.values.get(key) as T;
      // Loaded after the generation was read: a settings write committed meanwhile moved the
      // generation past this bucket's, so the next request starts a new one.
      const value = await load();
      if (this.companies.get(companyId) === b && !b.values.has(key)) {
        b.values.set(key, value);
        this.entries++;
        this.trim(companyId);
      }
      return value;
    };
  }

  /** Drops every company's values (a SQLite group commit failed: db/src/group-commit.ts). */
  clear(): void {
    this.companies.clear();
    this.entries = 0;
  }

  /** Values held (for tests). */
  get size(): number {
    return this.entries;
  }

  private drop(companyId: number, bucket: Bucket) {
    this.entries -= bucket.values.size;
    this.companies.delete(companyId);
  }

  private trim(keep: number) {
    for (const [id, bucket] of this.companies) {
      if (this.entries <= this.maxEntries) return;
      if (id !== keep) this.drop(id, bucket);
    }
  }
}
