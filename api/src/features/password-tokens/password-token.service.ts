// Single-use password links: reset (1 hour) and the invitation to set a first password (7 days).
// Below both auth (which consumes them) and users (which sends invitations).
import type { DbOrTx } from '@bookwell/db';
import { newSecretToken, sha256 } from '../../lib/auth.ts';
import { enqueueEmail } from '../notifications/outbox.repository.ts';
import { findUsableTokenByHash, insertPasswordToken, type TokenPurpose } from './password-token.repository.ts';

export const RESET_TTL_MS = 3600_000;
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** Creates the token and queues the email carrying it; call inside the transaction that needs it. */
export async function sendPasswordLink(
  db: DbOrTx,
  opts: {
    user: { id: number; email: string; name: string; company_id: number | null };
    purpose: TokenPurpose;
    appUrl: string;
    companyName?: string | null;
    now: Date;
    /** An invitation the person asked for by signing up with an email a booking left on record. */
    signUp?: boolean;
    /** A reset asked for by someone who has no password yet (they booked without an account). */
    firstPassword?: boolean;
  },
): Promise<void> {
  const { token, hash } = newSecretToken();
  const ttl = opts.purpose === 'reset' ? RESET_TTL_MS : INVITE_TTL_MS;
  await insertPasswordToken(db, {
    userId: opts.user.id,
    tokenHash: hash,
    purpose: opts.purpose,
    expiresAt: new Date(opts.now.getTime() + ttl),
    now: opts.now,
  });
  const link = `${opts.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
  const who = opts.companyName ? ` at ${opts.companyName}` : '';
  const email =
    opts.purpose === 'reset' && opts.firstPassword
      ? {
          subject: opts.companyName ? `Set your password for ${opts.companyName}` : 'Set your password',
          text: `Hello ${opts.user.name},\n\nSomeone asked to reset the password for this email address${who}. There is no password yet: the address is on record from a booking. To set one and sign in, open this link within one hour:\n\n${link}\n\nIf you did not ask for this, ignore this email: nothing changes.\n`,
        }
      : opts.purpose === 'reset'
        ? {
            subject: 'Reset your password',
            text: `Hello ${opts.user.name},\n\nSomeone asked to reset the password of your account${who}. To choose a new password, open this link within one hour:\n\n${link}\n\nIf you did not ask for this, ignore this email: your password stays as it is.\n`,
          }
        : {
            subject: opts.companyName ? `Set your password for ${opts.companyName}` : 'Set your password',
            text: opts.signUp
              ? `Hello ${opts.user.name},\n\nSomeone asked to create an account${who} with this email address. ${opts.companyName ?? 'We'} already ${opts.companyName ? 'has' : 'have'} it on record, so to make sure the address is yours, set your password by opening this link within 7 days:\n\n${link}\n\nIf you did not ask for this, ignore this email: nothing changes.\n`
              : `Hello ${opts.user.name},\n\nAn account was created for you${who}. To set your password and sign in, open this link within 7 days:\n\n${link}\n\nIf you were not expecting this, you can ignore this email.\n`,
          };
  await enqueueEmail(
    db,
    { to: opts.user.email, kind: opts.purpose === 'reset' ? 'password_reset' : 'invitation', companyId: opts.user.company_id, ...email },
    opts.now,
  );
}

/** The token's row while it can still be used; undefined for anything else (unknown, used, expired, absurd). */
export async function findUsableToken(db: DbOrTx, token: string, now: Date) {
  if (!token || token.length > 200) return undefined;
  return findUsableTokenByHash(db, sha256(token), now);
}
