import { describe, expect, it } from 'vitest';
import { decodeClaims } from './token.ts';

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('decodeClaims', () => {
  it('reads user_id and role from a JWT payload', () => {
    const token = `${b64url({ alg: 'HS256' })}.${b64url({ user_id: 7, role: 'admin', company_id: 3, exp: 1 })}.sig`;
    expect(decodeClaims(token)).toEqual({ user_id: 7, role: 'admin', company_id: 3, exp: 1 });
  });

  it('rejects malformed tokens', () => {
    expect(decodeClaims(null)).toBeNull();
    expect(decodeClaims('abc')).toBeNull();
    expect(decodeClaims(`x.${b64url({ role: 'admin' })}.y`)).toBeNull();
    expect(decodeClaims('x.%%%.y')).toBeNull();
  });
});
