import { describe, expect, it } from 'vitest';
import { formatUsd } from './service-options.tsx';

describe('formatUsd', () => {
  it('writes prices as Intl.NumberFormat en-US USD does', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    for (const n of [
      0,
      0.5,
      1,
      9.99,
      35,
      35.5,
      100,
      999.995,
      1000,
      1234.56,
      12_345.678,
      1_000_000,
      1_234_567.891,
      -5,
      -0.001,
      -0,
      -1234.5,
      0.004,
      2.675,
      1.005,
      -2.675,
      0.125,
      1e-7,
      123456789.125,
      1e21,
      NaN,
      Infinity,
    ]) {
      expect(formatUsd(n), String(n)).toBe(intl.format(n));
    }
  });
});
