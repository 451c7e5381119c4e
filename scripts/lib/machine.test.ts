// The machine readings every benchmark result carries (scripts/lib/machine.ts): a speed reference a
// reader can compare across sessions, and the processors' busy and stolen share over a run.
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadAverage, machineInfo, watchCpu } from './machine.ts';

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

  it('give the load averages rounded as the result files show them', () => {
    const [one] = os.loadavg();
    const shown = loadAverage(1);
    expect(shown).toHaveLength(3);
    for (const l of [...shown, ...loadAverage()]) expect(l).toBeGreaterThanOrEqual(0);
    // One decimal, and the kernel's reading (which may move a little between the two reads).
    expect(shown[0]).toBe(Math.round(shown[0] * 10) / 10);
    expect(Math.abs(shown[0] - one)).toBeLessThan(0.5);
  });
});
