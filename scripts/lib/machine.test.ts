// The machine readings every benchmark result carries (scripts/lib/machine.ts): a speed reference a
// reader can compare across sessions, and the processors' busy and stolen share over a run.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { machineInfo, watchCpu } from './machine.ts';

describe('machine readings', () => {
  it('give a speed reference in milliseconds, measured once per process', () => {
    const first = machineInfo();
    expect(first.reference_ms).toBeGreaterThan(0);
    expect(Number.isFinite(first.reference_ms)).toBe(true);
    expect(machineInfo().reference_ms).toBe(first.reference_ms);
    expect(first.cpus).toBeGreaterThan(0);
  });

  it('report the busy and stolen share of the processors since watching began (none without /proc)', async () => {
    const cpu = watchCpu();
    // Busy for a while, so the kernel's counters (in hundredths of a second) move.
    const until = Date.now() + 300;
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    await new Promise((r) => setTimeout(r, 50));
    const share = cpu.share();
    if (!fs.existsSync('/proc/stat')) return expect(share).toBeNull();
    expect(share).not.toBeNull();
    expect(share!.busy_pct).toBeGreaterThan(0);
    expect(share!.busy_pct).toBeLessThanOrEqual(100);
    expect(share!.steal_pct).toBeGreaterThanOrEqual(0);
    expect(share!.steal_pct).toBeLessThanOrEqual(100);
  });
});
