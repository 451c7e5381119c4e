// Customer self-service links (docs/decisions/23-self-service.md): `{APP_URL}/manage/<token>`.
//
// The link is written into emails when the dispatcher sends them, from a snapshot stored in the
// outbox, so the token must be computable at send time without being stored anywhere: it is an
// HMAC of a random per-appointment nonce under a key derived from the server's signing key. The
// database holds the nonce and the SHA-256 of the token (what a request is looked up by); with the
// database alone nobody can build a working link when the key comes from JWT_SECRET. When it is
// generated and kept in the database (JWT_SECRET unset), the database holds the key too, as it then
// does for signing sessions: production sets JWT_SECRET (README, "Configuration").
import crypto from 'node:crypto';

const KEY_LABEL = 'bookwell manage-link key v1';
const derivedKeys = new WeakMap<Uint8Array, Buffer>();

/** The link key: derived from the session signing key with its own label, so the two never mix. */
export function manageLinkKey(signingKey: Uint8Array): Buffer {
  let key = derivedKeys.get(signingKey);
  if (!key) {
    key = crypto.createHmac('sha256', signingKey).update(KEY_LABEL).digest();
    derivedKeys.set(signingKey, key);
  }
  return key;
}

/**
 * Nonces are drawn from a block of random bytes filled 256 nonces at a time, as Node itself does for
 * `randomUUID`: `randomBytes(16)` for each booking was a call into OpenSSL and a `getpid()` every
 * time, 2.8% of a booking's server CPU under the booking load (docs/decisions/38-booking-statements.md).
 * Each byte is handed out once.
 */
const NONCE_BYTES = 16;
const nonceBlock = Buffer.alloc(NONCE_BYTES * 256);
let nonceAt = nonceBlock.length;

/** 128 random bits, fresh for each appointment. */
export function newManageNonce(): string {
  if (nonceAt === nonceBlock.length) {
    crypto.randomFillSync(nonceBlock);
    nonceAt = 0;
  }
  const nonce = nonceBlock.toString('base64url', nonceAt, nonceAt + NONCE_BYTES);
  nonceAt += NONCE_BYTES;
  return nonce;
}

/** The token of a nonce: base64url(HMAC-SHA256(key, 'manage:' + nonce)), 43 characters, 256 bits. */
export function manageToken(key: Uint8Array, nonce: string): string {
  return crypto.createHmac('sha256', key).update(`manage:${nonce}`).digest('base64url');
}

/** What the database keeps of a token. */
export function manageTokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** A fresh nonce and the hash of its token, for a new appointment. */
export function issueManageNonce(key: Uint8Array): { manage_nonce: string; manage_token_hash: string } {
  const nonce = newManageNonce();
  return { manage_nonce: nonce, manage_token_hash: manageTokenHash(manageToken(key, nonce)) };
}

/** Only strings shaped like a token are looked up (anything else is an unknown link). */
export function looksLikeManageToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

export function manageUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/manage/${token}`;
}
