// Web storage that never throws. A booking page embedded in another site's iframe is a third-party
// document: where the visitor blocks third-party cookies (Chrome's setting, incognito windows),
// merely reading `window.localStorage` throws "Access is denied for this document", and the app
// would stop before its first render. Imported first by main.tsx, this puts an in-memory Storage in
// place of a refused one, so the embedded page works (it keeps nothing across visits, which a
// customer's booking does not need). See docs/decisions/30-csp-and-small-public-pages.md.

/** Storage kept in memory: in place of a refused one, and for tests run where there is none. */
export class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(String(key)) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(String(key));
  }
  setItem(key: string, value: string): void {
    this.items.set(String(key), String(value));
  }
}

/** Replaces `localStorage` / `sessionStorage` on `target` with memory when reading them throws. */
export function ensureStorage(target: typeof globalThis = globalThis): string[] {
  const replaced: string[] = [];
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      void target[name];
    } catch {
      Object.defineProperty(target, name, { value: new MemoryStorage(), configurable: true, writable: true });
      replaced.push(name);
    }
  }
  return replaced;
}

ensureStorage();
