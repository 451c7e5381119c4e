// Password token rows: single-use links stored by their SHA-256 only, one row per link sent.
import type { DbOrTx, PasswordTokenRow } from '@bookwell/db';

export type TokenPurpose = 'reset' | 'invite';

export async function insertPasswordToken(
  db: DbOrTx,
  t: { userId: number; tokenHash: string; purpose: TokenPurpose; expiresAt: Date; now: Date },
): Promise<void> {
  await db
    .insertInto('password_tokens')
    .values({
      user_id: t.userId,
      token_hash: t.tokenHash,
      purpose: t.purpose,
      expires_at: t.expiresAt.toISOString(),
      used_at: null,
      created_at: t.now.toISOString(),
    })
    .execute();
}

/** The unused, unexpired token with this hash. */
export async function findUsableTokenByHash(db: DbOrTx, tokenHash: string, now: Date): Promise<PasswordTokenRow | undefined> {
  return db
    .selectFrom('password_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
}

/** Marks the token used; false when another request consumed it first (single use under races). */
export async function consumeToken(db: DbOrTx, id: number, now: Date): Promise<boolean> {
  const res = await db
    .updateTable('password_tokens')
    .set({ used_at: now.toISOString() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Every outstanding link of this user stops working. */
export async function retireUserTokens(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('password_tokens')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Whether this user was ever sent an invitation (used or not). */
export async function wasInvited(db: DbOrTx, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('password_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'invite')
    .executeTakeFirst();
  return row !== undefined;
}
