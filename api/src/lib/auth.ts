// Session tokens (HS256 JWT via jose), password hashing (argon2id) and reading the caller from a request.
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { sql, type Kysely } from 'kysely';
import { arg, perRound, prepared, type Database, type Role, type UserRow } from '@bookwell/db';
import type { Actor } from './context.ts';

export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;
const JWT_SETTING_KEY = 'jwt_secret';

export interface TokenClaims {
  user_id: number;
  role: Role;
  company_id: number | null;
  /** The user's token version when the token was issued. */
  tv: number;
}

/** Returns the signing key: JWT_SECRET, or a random secret created once and shared through the database. */
export async function loadJwtKey(db: Kysely<Database>, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const candidate = crypto.randomBytes(48).toString('base64url');
  // Several processes may start at once: the first insert wins, everyone reads the winner.
  await db
    .insertInto('app_settings')
    .values({ key: JWT_SETTING_KEY, value: candidate })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', JWT_SETTING_KEY).executeTakeFirstOrThrow();
  return new TextEncoder().encode(row.value);
}

export async function issueToken(
  key: Uint8Array,
  user: { id: number; role: Role; company_id: number | null; token_version: number },
  now = new Date(),
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ user_id: user.id, role: user.role, company_id: user.company_id, tv: user.token_version })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
    .sign(key);
}

// A signature check goes through WebCrypto (async, ~40 µs) on every authenticated request. A token
// that verified once under a key verifies again until it expires, so good tokens are remembered per
// key (the exact token string, signature included); expiry is still checked against the clock.
const VERIFIED_LIMIT = 10_000;
const verifiedByKey = new WeakMap<Uint8Array, Map<string, { claims: TokenClaims; exp: number }>>();

/** Verifies signature, algorithm and expiry; null for any bad token (the reason is not the caller's business). */
export async function verifyToken(key: Uint8Array, token: string, now = new Date()): Promise<TokenClaims | null> {
  let verified = verifiedByKey.get(key);
  const known = verified?.get(token);
  if (known) return now.getTime() < known.exp * 1000 ? known.claims : null;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: now });
    const { user_id, role, company_id, tv } = payload as Record<string, unknown>;
    if (!Number.isInteger(user_id) || typeof role !== 'string' || !Number.isInteger(tv ?? 0)) return null;
    const claims = {
      user_id: user_id as number,
      role: role as Role,
      company_id: (company_id as number | null) ?? null,
      tv: (tv as number) ?? 0,
    };
    if (typeof payload.exp === 'number' && (payload.nbf === undefined || payload.nbf * 1000 <= now.getTime())) {
      if (!verified) verifiedByKey.set(key, (verified = new Map()));
      if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value as string);
      verified.set(token, { claims, exp: payload.exp });
    }
    return claims;
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError || err instanceof SyntaxError) return null;
    throw err;
  }
}

const TOKEN_USER_COLUMNS = ['id', 'role', 'company_id', 'name', 'email', 'token_version', 'archived_at', 'password_hash'] as const;
type TokenUser = Pick<UserRow, (typeof TOKEN_USER_COLUMNS)[number]>;

const userOfToken = prepared<[userId: number], TokenUser>((db) =>
  db.selectFrom('users').select(TOKEN_USER_COLUMNS).where('id', '=', arg(0)),
);
const usersOfTokens = prepared<[userIds: number[]], TokenUser>((db) =>
  db
    .selectFrom('users')
    .select(TOKEN_USER_COLUMNS)
    .where(sql<boolean>`id = any(${arg(0)})`),
);
/** Every authenticated request reads its caller: on PostgreSQL the requests of one round of events share the read. */
const callerOf = perRound<number, TokenUser>(
  async (db, ids) => new Map((await usersOfTokens(db, [ids])).map((u) => [Number(u.id), u])),
  async (db, id) => (await userOfToken(db, [id]))[0],
);

/** Reads the caller: the token must verify and match the user's current token version; role comes from the database. */
export async function actorFromToken(db: Kysely<Database>, key: Uint8Array, token: string, now: Date): Promise<Actor | null> {
  const claims = await verifyToken(key, token, now);
  if (!claims) return null;
  const user = await callerOf(db, claims.user_id);
  // A changed role or password (token version) makes older tokens useless.
  if (!user || user.archived_at || !user.password_hash || user.token_version !== claims.tv || user.role !== claims.role) return null;
  return { id: user.id, role: user.role, company_id: user.company_id, name: user.name, email: user.email };
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m ? m[1] : null;
}

// Passwords. argon2id with the library's defaults (19 MiB, t=2), never inside a database transaction.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | null = null;
/** Verifies a password; with no stored hash, spends the same time so unknown emails are not revealed by timing. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash('timing-equaliser-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Single-use tokens travel in emails; only their SHA-256 is stored. */
export function newSecretToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}
