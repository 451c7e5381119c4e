// A self-service link is only as unguessable as its nonce: every appointment gets 128 fresh random
// bits, never another's, across the refills of the block they are drawn from.
import { describe, expect, it } from 'vitest';
import { manageLinkKey, manageToken, newManageNonce } from './manage-token.ts';

describe('manage-link nonces', () => {
  it('are 16 bytes of base64url, all different over several refills', () => {
    const nonces = Array.from({ length: 1_000 }, () => newManageNonce());
    for (const n of nonces) {
      expect(n).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(n, 'base64url')).toHaveLength(16);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it('look random: over 1,000 nonces each bit is set about half the time', () => {
    const ones = new Array<number>(128).fill(0);
    const count = 1_000;
    for (let i = 0; i < count; i++) {
      const bytes = Buffer.from(newManageNonce(), 'base64url');
      for (let bit = 0; bit < 128; bit++) if (bytes[bit >> 3] & (1 << (bit & 7))) ones[bit]++;
    }
    // A fair bit is set 500 +- 16 times (one standard deviation); 380-620 is more than 7 of them.
    for (const n of ones) {
      expect(n).toBeGreaterThan(380);
      expect(n).toBeLessThan(620);
    }
  });

  it('give different links for different appointments', () => {
    const key = manageLinkKey(new Uint8Array(32).fill(7));
    expect(manageToken(key, newManageNonce())).not.toBe(manageToken(key, newManageNonce()));
  });
});
