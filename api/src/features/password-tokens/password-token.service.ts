// Single-use password links: reset (1 hour) and the invitation to set a first password (7 days).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@bookwell/db';
import { newSecretToken, sha256 } from '../../lib/auth.ts';
import { enqueueEmail } from '../notifications/outbox.ts';

type Db = Kysely<Database> | Transaction<Database>;

export const RESET_TTL_MS = 3600_000;
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

export type TokenPurpose = 'reset' | 'invite';

/** Creates the token and queues the email carrying it; call inside the transaction that needs it. */
export async function sendPasswordLink(
  db: Db,
  opts: { user: { id: number; email: string; name: string; company_id: number | null }; purpose: TokenPurpose; appUrl: string; companyName?: string | null; now: Date },
): Promise<void> {
  const { token, hash } = newSecretToken();
  const ttl = opts.purpose === 'reset' ? RESET_TTL_MS : INVITE_TTL_MS;
  await db.insertInto('password_tokens').values({
    user_id: opts.user.id,
    token_hash: hash,
    purpose: opts.purpose,
    expires_at: new Date(opts.now.getTime() + ttl).toISOString(),
    used_at: null,
    created_at: opts.now.toISOString(),
  }).execute();
  const link = `${opts.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
  const who = opts.companyName ? ` at ${opts.companyName}` : '';
  const email = opts.purpose === 'reset'
    ? {
        subject: 'Reset your password',
        text: `Hello ${opts.user.name},\n\nSomeone asked to reset the password of your account${who}. To choose a new password, open this link within one hour:\n\n${link}\n\nIf you did not ask for this, ignore this email: your password stays as it is.\n`,
      }
    : {
        subject: opts.companyName ? `Set your password for ${opts.companyName}` : 'Set your password',
        text: `Hello ${opts.user.name},\n\nAn account was created for you${who}. To set your password and sign in, open this link within 7 days:\n\n${link}\n\nIf you were not expecting this, you can ignore this email.\n`,
      };
  await enqueueEmail(db, { to: opts.user.email, kind: `password_${opts.purpose}`, companyId: opts.user.company_id, ...email }, opts.now);
}

export async function findUsableToken(db: Db, token: string, now: Date) {
  if (!token || token.length > 200) return undefined;
  return db.selectFrom('password_tokens').selectAll()
    .where('token_hash', '=', sha256(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
}

/** Marks the token used; false when another request consumed it first (single use under races). */
export async function consumeToken(db: Db, id: number, now: Date): Promise<boolean> {
  const res = await db.updateTable('password_tokens').set({ used_at: now.toISOString() })
    .where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
