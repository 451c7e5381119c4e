// Idempotency-Key on writes (docs/decisions/05-scheduling-rules.md): the first request with a key runs, every replay
// with the same key and body gets the first response back, and the state lives in the database so it
// holds across processes and restarts.
//
// Life of a key, scoped to (caller, method, path, key), on routes whose every 2xx comes from one
// transaction (`recordedInTransaction`: the appointment writes, docs/decisions/43-idempotency-key-in-the-transaction.md):
// 1. The middleware reads the key: a key done answers its response (or 422 for another body); none, the
//    handler runs.
// 2. The handler's transaction writes the key as done with its response (`recordIdempotentResponse`),
//    so "changed" and "remembered" commit together. The table's unique constraint lets one of two
//    requests with the key commit (in any process); the other's insert finds the row, and its
//    transaction rolls back.
// 3. A request refused for any reason (a slot taken, a version changed, the key written first) reads
//    the key again: when a request with its key and body committed meanwhile, that one's response is
//    its answer. Otherwise nothing was written: a retry runs.
// On other routes the key is claimed first, in a commit of its own:
// 1. The middleware inserts it `in_progress` with a random lease (`owner_token`). The table's unique
//    constraint picks one winner among concurrent requests, in any process.
// 2. The handler records the response inside the transaction that makes the change, or the middleware
//    records it after a handler that did not.
// 3. Anything that ends without a 2xx changed nothing: the key is released so a retry can run.
// 4. An `in_progress` key whose lease is older than LEASE_MS belongs to a request that died before
//    committing (a committed one would be `done`); a retry takes the lease over. A stalled original that
//    wakes up later fails to record (its lease is gone) and rolls back, so both can never commit.
import crypto from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import { arg, byPlace, columnsOf, perRound, prepared, preparedWrite, type Database, type DbOrTx, type ManyArgs } from '@bookwell/db';
import { isUniqueViolation } from './db-errors.ts';
import type { AppEnv } from './context.ts';
import { AppError, badRequest, errorResponse } from './errors.ts';
import { isUnsafeText, readBody, unsafeInput } from './validation.ts';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
export const IDEMPOTENCY_RETENTION_DAYS = 30;
/** How long an in-progress key is protected before a retry may assume its request died. */
export const IDEMPOTENCY_LEASE_MS = 2 * 60_000;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const STORED_HEADERS = ['content-type', 'etag'];

interface Claim {
  /** The claim's row; null when the key is written in the handler's transaction (recordedInTransaction). */
  id: number | null;
  owner: string;
  recorded: boolean;
  /** Scope, method, path, key and request hash: the row recordIdempotentResponse writes when there is no claim. */
  write: [...KeyWhere, requestHash: string];
}

// Keyed by the request object, so the lib needs no slot in the app's context type.
const claims = new WeakMap<Request, Claim>();

/**
 * Keys whose request is running in this process on a route that writes its key in its transaction,
 * with their request hash. Nothing of such a request is in the database until it commits, so a
 * replay arriving meanwhile learns from here that the first is still running: 409
 * `idempotency_in_progress` (docs/decisions/05-scheduling-rules.md), or 422 for another body. A replay in another process
 * waits for the first's commit instead and answers its response (docs/decisions/43-idempotency-key-in-the-transaction.md).
 */
const running = new Map<string, string>();

// Every write from the PWA carries a key (the booking page, the staff calendar, the offline outbox),
// so these run on every booking: compiled once (db/src/prepared.ts), not built again per request.
/** A key claimed (`in_progress`, with its lease) or written done with its response; no row when it exists already. */
const insertKey = prepared<
  [
    scope: string,
    method: string,
    path: string,
    key: string,
    requestHash: string,
    state: 'in_progress' | 'done',
    owner: string | null,
    status: number | null,
    body: string | null,
    headers: string | null,
    at: string,
  ],
  { id: number }
>((db) =>
  db
    .insertInto('idempotency_keys')
    .values({
      scope: arg(0),
      method: arg(1),
      path: arg(2),
      key: arg(3),
      request_hash: arg(4),
      state: arg(5),
      owner_token: arg(6),
      response_status: arg(7),
      response_body: arg(8),
      response_headers: arg(9),
      created_at: arg(10),
      updated_at: arg(10),
    })
    .onConflict((oc) => oc.columns(['scope', 'method', 'path', 'key']).doNothing())
    .returning('id'),
);
/**
 * PostgreSQL: the key written done by the write's transaction as a deferred write, so it goes out with
 * the commit (docs/decisions/43-idempotency-key-in-the-transaction.md, "Session 38": one message less
 * per write). A rival that wrote the key first makes it fail there on the key's unique constraint,
 * which the write's transaction answers as keyWrittenFirst (isKeyWrittenFirst); SQLite, which has no
 * messages to save, keeps insertKey's empty answer for that.
 */
const insertDoneKeyWithCommit = preparedWrite<
  [
    scope: string,
    method: string,
    path: string,
    key: string,
    requestHash: string,
    status: number,
    body: string | null,
    headers: string,
    at: string,
  ]
>((db) =>
  db.insertInto('idempotency_keys').values({
    scope: arg(0),
    method: arg(1),
    path: arg(2),
    key: arg(3),
    request_hash: arg(4),
    state: 'done',
    owner_token: null,
    response_status: arg(5),
    response_body: arg(6),
    response_headers: arg(7),
    created_at: arg(8),
    updated_at: arg(8),
  }),
);

/** A write whose key another request with it wrote first: it rolls back, changing nothing. */
export const keyWrittenFirst = () =>
  new AppError('idempotency_in_progress', 'Another request took over this Idempotency-Key; nothing was changed');

/** The error of a write transaction whose key (insertDoneKeyWithCommit) another request wrote first. */
export function isKeyWrittenFirst(err: unknown): boolean {
  return isUniqueViolation(err) && (err as { table?: string }).table === 'idempotency_keys';
}

/** Marks a claim done with its response, while this request still holds it; answers the row it marked. */
const recordResponse = prepared<
  [status: number, body: string | null, headers: string, at: string, id: number, owner: string],
  { id: number }
>((db) =>
  db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: arg(0), response_body: arg(1), response_headers: arg(2), updated_at: arg(3) })
    .where('id', '=', arg(4))
    .where('owner_token', '=', arg(5))
    .where('state', '=', 'in_progress')
    .returning('id'),
);
/** Lets a retry run: the claim of a request that changed nothing goes (a 409 slot_taken, a 400...). */
const releaseClaim = prepared<[id: number, owner: string], never>((db) =>
  db.deleteFrom('idempotency_keys').where('id', '=', arg(0)).where('owner_token', '=', arg(1)).where('state', '=', 'in_progress'),
);

/**
 * Whether a refused request's answer is kept for its replays: a 4xx the request earned as it is
 * (bad input, a slot taken, a stale version, not found...). Not kept, so a retry with the same key
 * runs: a failure of ours (5xx, a thrown error), a rate limit, a timeout, and a 401 (signing in
 * again is the fix; the key's scope is the caller anyway).
 */
function keepsRefusal(status: number, failed: boolean): boolean {
  return !failed && status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429;
}

function pickedHeaders(res: Response): string {
  return JSON.stringify(pickHeaders(res.headers));
}

/** The key was used with another request body. */
const mismatch = () => new AppError('idempotency_mismatch', 'This Idempotency-Key was already used with a different request body');

/** A replay while the first request with its key has not finished: try again in a moment. */
const stillRunning = () =>
  new AppError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed', {
    headers: { 'Retry-After': '1' },
  });

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(body: string): string {
  let canonical = body;
  if (body.trim()) {
    try {
      canonical = canonicalJson(JSON.parse(body));
    } catch {
      /* not JSON: the raw text is the request (validation will refuse it) */
    }
  }
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

function validKey(key: string): boolean {
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && /^[\x20-\x7e]+$/.test(key) && key.trim().length > 0;
}

function replay(c: Context, row: { response_status: number | null; response_body: string | null; response_headers: string | null }) {
  const headers: Record<string, string> = JSON.parse(row.response_headers ?? '{}');
  headers['Idempotent-Replayed'] = 'true';
  const status = row.response_status ?? 200;
  return c.newResponse(status === 204 ? null : row.response_body, status as 200, headers);
}

export interface IdempotencyOptions {
  /**
   * Every 2xx of these routes comes from a transaction that calls recordIdempotentResponse: the key
   * is then written in that transaction, as done, instead of claimed in a commit of its own first
   * (docs/decisions/43-idempotency-key-in-the-transaction.md).
   */
  recordedInTransaction?: boolean;
}

/** What identifies a key: its scope (the caller), the request's method and path, and the key itself. */
type KeyWhere = [scope: string, method: string, path: string, key: string];

const KEY_COLUMNS = [
  'id',
  'request_hash',
  'state',
  'owner_token',
  'updated_at',
  'response_status',
  'response_body',
  'response_headers',
] as const;
type KeyRow = Pick<Selectable<Database['idempotency_keys']>, (typeof KEY_COLUMNS)[number]>;

/** One key's row. */
const keyRow = prepared<KeyWhere, KeyRow>((db) =>
  db
    .selectFrom('idempotency_keys')
    .select(KEY_COLUMNS)
    .where('scope', '=', arg(0))
    .where('method', '=', arg(1))
    .where('path', '=', arg(2))
    .where('key', '=', arg(3)),
);
/**
 * Many keys' rows in one statement, each with its question's place (PostgreSQL: the arrays unnested
 * with ordinality), each looked up through the key's unique index (query-plan.test.ts). Exported as a
 * builder for that test.
 */
export function manyKeysQuery(db: Kysely<Database>, keys: ManyArgs<KeyWhere>) {
  const [scopes, methods, paths, names] = keys;
  return db
    .selectFrom(
      sql<{
        scope: string;
        method: string;
        path: string;
        key: string;
        i: number;
      }>`(select * from unnest(${scopes}::text[], ${methods}::text[], ${paths}::text[], ${names}::text[]) with ordinality as q(scope, method, path, key, i))`.as(
        'k',
      ),
    )
    .innerJoin('idempotency_keys as ik', (j) =>
      j.onRef('ik.scope', '=', 'k.scope').onRef('ik.method', '=', 'k.method').onRef('ik.path', '=', 'k.path').onRef('ik.key', '=', 'k.key'),
    )
    .select(['k.i', ...KEY_COLUMNS.map((c) => `ik.${c}` as const)]);
}
const keyRows = prepared<ManyArgs<KeyWhere>, KeyRow & { i: number | string }>((db) => manyKeysQuery(db, [arg(0), arg(1), arg(2), arg(3)]));
/** A key's question as a map key: any text may be in it, so not joined by a separator. */
const keyOfWhere = (where: KeyWhere) => JSON.stringify(where);
/**
 * Looks a key up: the middleware's one statement before the handler on a route recorded in its
 * transaction, and every keyed write's (the PWA keys them all). On PostgreSQL the lookups of one round
 * of events share a statement (db/src/round-batch.ts), as the caller's read before it does: a round
 * trip of its own cost the server more CPU than the read (docs/decisions/43-idempotency-key-in-the-transaction.md,
 * "Session 39"). The shared statement starts after every lookup it answers was asked, so it sees every
 * key committed before that.
 */
const findKey = perRound<KeyWhere, KeyRow, string>(
  async (db, questions) => byPlace(questions, await keyRows(db, columnsOf(questions)), keyOfWhere),
  async (db, where) => (await keyRow(db, where))[0],
  keyOfWhere,
);

/**
 * Middleware for routes whose writes honour Idempotency-Key. Requests without the header pass
 * through untouched; reads are never affected.
 */
export function idempotency(options: IdempotencyOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!WRITE_METHODS.has(c.req.method)) return next();
    const key = c.req.header('idempotency-key');
    // Mounted twice on one path by mistake, the inner copy must not see the outer one's claim as a rival.
    if (key === undefined || claims.has(c.req.raw)) return next();
    if (!validKey(key)) {
      throw badRequest(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`);
    }
    const { db, now } = c.get('deps');
    const actor = c.get('actor');
    const scope = actor ? `user:${actor.id}` : `anon:${c.get('clientIp')}`;
    const path = c.req.path;
    // Stored with the key: a decoded NUL or lone surrogate in the path is refused here, before the
    // route's own check of its parameters runs (PostgreSQL refuses such text with a 500).
    if (isUnsafeText(path)) throw unsafeInput('path');
    // Read once for us and the route's unsafe-text check after us (lib/validation.ts).
    const hash = requestHash((await readBody(c)).text);
    // 122 random bits from Node's cached pool: randomBytes(16) went to OpenSSL on every request.
    const owner = crypto.randomUUID().replaceAll('-', '');
    const where: KeyWhere = [scope, c.req.method, path, key];

    let claimId: number | null = null;
    let runningKey: string | null = null;
    if (options.recordedInTransaction) {
      // Nothing is written yet: the handler's transaction writes the key (recordIdempotentResponse).
      const existing = await findKey(db, where);
      if (existing) {
        const answer = settled(c, existing, hash, now());
        if (answer) return answer;
        claimId = await takeOver(db, existing, owner, now().toISOString());
      } else {
        runningKey = JSON.stringify(where);
        const first = running.get(runningKey);
        if (first !== undefined) {
          if (first !== hash) throw mismatch();
          throw stillRunning();
        }
        running.set(runningKey, hash);
      }
    } else {
      const claimed = await claimFirst(c, db, where, hash, owner, now);
      if (claimed instanceof Response) return claimed;
      claimId = claimed;
    }

    const claim: Claim = { id: claimId, owner, recorded: false, write: [...where, hash] };
    claims.set(c.req.raw, claim);
    let failed = false;
    try {
      await next();
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      try {
        const status = c.res?.status ?? 500;
        const ok = !failed && !c.error && status >= 200 && status < 300;
        if (ok && !claim.recorded) {
          // A handler that did not record inside its transaction: remember the response now.
          const body = status === 204 ? null : await c.res.clone().text();
          const headers = pickedHeaders(c.res);
          const at = now().toISOString();
          if (claim.id !== null) await recordResponse(db, [status, body, headers, at, claim.id, owner]);
          else await insertKey(db, [...claim.write, 'done', null, status, body, headers, at]);
        } else if (!ok && claim.id !== null) {
          // Refused: a replay answers the refusal and changes nothing (docs/decisions/05-scheduling-rules.md).
          // Anything that may pass later as it is (a 5xx, a rate limit) lets a retry run instead.
          if (keepsRefusal(status, failed))
            await recordResponse(db, [status, await c.res.clone().text(), pickedHeaders(c.res), now().toISOString(), claim.id, owner]);
          else await releaseClaim(db, [claim.id, owner]);
        } else if (!ok && !failed) {
          // Refused (a slot taken, a version changed, the key written first): when that was a
          // request with this key and body that committed meanwhile, its answer is this one's.
          const first = await findKey(db, where);
          if (first?.state === 'done' && first.request_hash === hash) {
            c.error = undefined;
            c.res = undefined;
            c.res = replay(c, first);
          } else if (first && first.request_hash !== hash) {
            // The key was used for another body (before this request, or meanwhile): 422, as a read first answers.
            c.error = undefined;
            c.res = undefined;
            c.res = errorResponse(c, mismatch());
          } else if (!first && keepsRefusal(status, failed)) {
            // Kept for replays; a rival that wrote the key meanwhile keeps its own (insert or nothing).
            await insertKey(db, [
              ...claim.write,
              'done',
              null,
              status,
              await c.res.clone().text(),
              pickedHeaders(c.res),
              now().toISOString(),
            ]);
          }
        }
      } finally {
        // Only now: a handler that did not record in its transaction has its key written just above.
        if (runningKey !== null) running.delete(runningKey);
      }
    }
  };
}

/** The answer for a key already used: a replay, a mismatch or "still running"; null when its lease ran out (take it over). */
function settled(c: Context, existing: KeyRow, hash: string, now: Date): Response | null {
  if (existing.request_hash !== hash) throw mismatch();
  if (existing.state === 'done') return replay(c, existing);
  if (Date.parse(existing.updated_at) > now.getTime() - IDEMPOTENCY_LEASE_MS) throw stillRunning();
  return null;
}

/** Takes over the claim of a request that died (its lease ran out): answers its id, or throws "still running". */
async function takeOver(db: DbOrTx, existing: KeyRow, owner: string, at: string): Promise<number> {
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ owner_token: owner, updated_at: at })
    .where('id', '=', existing.id)
    .where('state', '=', 'in_progress')
    .where((eb) => (existing.owner_token === null ? eb('owner_token', 'is', null) : eb('owner_token', '=', existing.owner_token)))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw stillRunning();
  return existing.id;
}

/** Claims the key in a commit of its own before the handler runs: answers the claim's id, or the replay. */
async function claimFirst(
  c: Context,
  db: DbOrTx,
  where: KeyWhere,
  hash: string,
  owner: string,
  now: () => Date,
): Promise<number | Response> {
  // A key released between our insert and our read is simply claimed again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const at = now().toISOString();
    const [inserted] = await insertKey(db, [...where, hash, 'in_progress', owner, null, null, null, at]);
    if (inserted) return inserted.id;
    const existing = await findKey(db, where);
    if (!existing) continue;
    const answer = settled(c, existing, hash, now());
    if (answer) return answer;
    return takeOver(db, existing, owner, at);
  }
  throw stillRunning();
}

function pickHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const v = headers.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
}

/**
 * Call inside the write transaction, just before it commits: stores the response under the request's
 * key (when it has one). Throws, rolling the transaction back, when this request no longer owns the
 * key, or another request wrote it first.
 */
export async function recordIdempotentResponse(
  trx: DbOrTx,
  c: Context,
  response: { status: number; body?: unknown; headers?: Record<string, string> },
  now: Date,
): Promise<void> {
  const claim = claims.get(c.req.raw);
  if (!claim) return;
  const headers: Record<string, string> = {};
  if (response.body !== undefined) headers['content-type'] = 'application/json';
  for (const [k, v] of Object.entries(response.headers ?? {})) headers[k.toLowerCase()] = v;
  const body = response.body === undefined ? null : JSON.stringify(response.body);
  const at = now.toISOString();
  if (claim.id === null && trx.getExecutor().adapter instanceof PostgresAdapter) {
    await insertDoneKeyWithCommit(trx, [...claim.write, response.status, body, JSON.stringify(headers), at]);
    claim.recorded = true;
    return;
  }
  const marked =
    claim.id === null
      ? await insertKey(trx, [...claim.write, 'done', null, response.status, body, JSON.stringify(headers), at])
      : await recordResponse(trx, [response.status, body, JSON.stringify(headers), at, claim.id, claim.owner]);
  if (marked.length !== 1) throw keyWrittenFirst();
  claim.recorded = true;
}

/** Drops keys older than the retention period; the scheduler calls it (keys live at least 30 days). */
export async function pruneIdempotencyKeys(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_DAYS * 24 * 3600_000).toISOString();
  const res = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(res.numDeletedRows);
}
