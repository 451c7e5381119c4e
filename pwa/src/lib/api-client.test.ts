import { describe, expect, it } from 'vitest';
import { RPC_PLACEHOLDER_BASE, newIdempotencyKey, toApiPath } from './api-client.ts';

describe('api-client helpers', () => {
  it('maps typed-client URLs and plain paths onto the API base', () => {
    expect(toApiPath(`${RPC_PLACEHOLDER_BASE}/login`)).toBe('/login');
    expect(toApiPath(`${RPC_PLACEHOLDER_BASE}/password-reset/validate?token=a`)).toBe('/password-reset/validate?token=a');
    expect(toApiPath('/api/companies/1')).toBe('/companies/1');
    expect(toApiPath('/companies/1')).toBe('/companies/1');
    expect(toApiPath('/apiary')).toBe('/apiary');
  });

  it('makes RFC 4122 v4 keys', () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(key);
  });
});
