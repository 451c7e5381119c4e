// Single-use password links: reset (1 hour) and the invitation to set a first password (7 days).
// Below both auth (which consumes them) and users (which sends invitations).
import type { DbOrTx } from '@bookwell/db';
import { newSecretToken, sha256 } from '../../lib/auth.ts';
import { enqueueEmail } from '../notifications/outbox.repository.ts';
import { findUsableTokenByHash, insertPasswordToken, type TokenPurpose } from './password-token.repository.ts';

export const RESET_TTL_MS = 3600_000;
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

/**
 * Why a link goes out besides a staff invitation or an ordinary reset: 'sign-up', an invitation
 * the person asked for by signing up with an email a booking left on record; 'first-password', a
 * reset asked for by someone who has no password yet (they booked without an account, or staff
 * added them and the invitation went unused).
 */
export type LinkReason = 'sign-up' | 'first-password';

function linkEmail(
  opts: { user: { name: string; role?: string }; purpose: TokenPurpose; companyName?: string | null; reason?: LinkReason },
  link: string,
): { subject: string; text: string } {
  const hello = `Hello ${opts.user.name},\n\n`;
  const who = opts.companyName ? ` at ${opts.companyName}` : '';
  const setSubject = opts.companyName ? `Set your password for ${opts.companyName}` : 'Set your password';
  const ignore = 'If you did not ask for this, ignore this email: nothing changes.\n';
  if (opts.reason === 'first-password')
    return {
      subject: setSubject,
      text: `${hello}Someone asked to reset the password for this email address${who}. There is no password yet: ${opts.user.role && opts.user.role !== 'customer' ? 'an account was made for you there, and its invitation was not used' : 'the address is on record from a booking'}. To set one and sign in, open this link within one hour:\n\n${link}\n\n${ignore}`,
    };
  if (opts.purpose === 'reset')
    return {
      subject: 'Reset your password',
      text: `${hello}Someone asked to reset the password of your account${who}. To choose a new password, open this link within one hour:\n\n${link}\n\nIf you did not ask for this, ignore this email: your password stays as it is.\n`,
    };
  if (opts.reason === 'sign-up')
    return {
      subject: setSubject,
      text: `${hello}Someone asked to create an account${who} with this email address. ${opts.companyName ?? 'We'} already ${opts.companyName ? 'has' : 'have'} it on record, so to make sure the address is yours, set your password by opening this link within 7 days:\n\n${link}\n\n${ignore}`,
    };
  return {
    subject: setSubject,
    text: `${hello}An account was created for you${who}. To set your password and sign in, open this link within 7 days:\n\n${link}\n\nIf you were not expecting this, you can ignore this email.\n`,
  };
}

/** Creates the token and queues the email carrying it; call inside the transaction that needs it. */
export async function sendPasswordLink(
  db: DbOrTx,
  opts: {
    user: { id: number; email: string; name: string; company_id: number | null; role?: string };
    purpose: TokenPurpose;
    appUrl: string;
    companyName?: string | null;
    now: Date;
    /** Worded for why it goes out, when not a staff invitation or an ordinary reset (LinkReason). */
    reason?: LinkReason;
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
  const email = linkEmail(opts, link);
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
