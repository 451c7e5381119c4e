// Hono's router with its matches kept (docs/decisions/36-route-matches.md).
//
// Hono's RegExpRouter cannot take our routes (/api/companies/slug/:slug beside /api/companies/:id,
// paths docs/product/07-api.md fixes), so every request went through the TrieRouter's search: about a tenth of a
// cached availability answer's server time and an eighth of what it allocates, to find the same
// handlers for the same path again. The routes never change once the app is built, so a path's
// match is kept and handed out again: Hono only reads a match (as it does RegExpRouter's, which are
// shared by design). Bounded: past LIMIT kept paths (ids in paths make many), the kept ones are
// dropped and the next requests search again.
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

const LIMIT = 2000;

export class MemoRouter<T> implements Router<T> {
  readonly name = 'MemoRouter';
  readonly #inner = new TrieRouter<T>();
  readonly #kept = new Map<string, Map<string, Result<T>>>();
  #size = 0;

  add(method: string, path: string, handler: T): void {
    this.#forget();
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.#kept.get(method);
    const kept = byPath?.get(path);
    if (kept !== undefined) return kept;
    const found = this.#inner.match(method, path);
    if (this.#size >= LIMIT) {
      this.#forget();
      byPath = undefined;
    }
    if (byPath === undefined) this.#kept.set(method, (byPath = new Map()));
    byPath.set(path, found);
    this.#size++;
    return found;
  }

  #forget(): void {
    this.#kept.clear();
    this.#size = 0;
  }
}
