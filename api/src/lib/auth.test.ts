// Token verification, including the memo of tokens that already verified: it never outlives expiry.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS, issueToken, verifyToken } from './auth.ts';

const key = new TextEncoder().encode('k'.repeat(48));
const user = { id: 7, role: 'admin' as const, company_id: 3, token_version: 2 };

describe('verifyToken', () => {
  it('accepts a good token again and again, and refuses it once it has expired', async () => {
    const issued = new Date('2026-05-01T10:00:00Z');
    const token = await issueToken(key, user, issued);
    const claims = { user_id: 7, role: 'admin', company_id: 3, tv: 2 };
    expect(await verifyToken(key, token, issued)).toEqual(claims);
    expect(await verifyToken(key, token, new Date(issued.getTime() + 1000))).toEqual(claims);
    expect(await verifyToken(key, token, new Date(issued.getTime() + TOKEN_LIFETIME_SECONDS * 1000 + 1000))).toBeNull();
  });

  it('does not accept a remembered token under another key, nor a tampered copy', async () => {
    const now = new Date('2026-05-01T10:00:00Z');
    const token = await issueToken(key, user, now);
    expect(await verifyToken(key, token, now)).not.toBeNull();
    expect(await verifyToken(new TextEncoder().encode('o'.repeat(48)), token, now)).toBeNull();
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ user_id: 1, role: 'global_admin', company_id: null, tv: 0, exp: 4e9 })).toString(
      'base64url',
    );
    expect(await verifyToken(key, `${h}.${forged}.${s}`, now)).toBeNull();
  });

  it('refuses a token that is not valid yet', async () => {
    const now = new Date('2026-05-01T10:00:00Z');
    const later = Math.floor(now.getTime() / 1000) + 3600;
    const token = await new SignJWT({ user_id: 7, role: 'admin', company_id: 3, tv: 2 })
      .setProtectedHeader({ alg: 'HS256' })
      .setNotBefore(later)
      .setExpirationTime(later + 60)
      .sign(key);
    expect(await verifyToken(key, token, now)).toBeNull();
    expect(await verifyToken(key, token, new Date(later * 1000 + 1000))).not.toBeNull();
  });
});
