// Measures bookableSlots on a busy day (run: node --import tsx api/src/features/availability/availability.speed.ts); not a test, timings vary by machine.
import { bookableSlots, slotsForAnyEmployee, type BusyAppointment, type Candidate, type SlotQuery } from './availability.ts';

function busyDay(count: number, seed: number): BusyAppointment[] {
  let x = seed;
  const random = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const dayStart = Date.parse('2026-03-10T12:00:00.000Z'); // 08:00 in New York
  return Array.from({ length: count }, (_, i) => {
    const start = dayStart + Math.floor(random() * 48) * 15 * 60_000;
    const end = start + (1 + Math.floor(random() * 8)) * 15 * 60_000;
    return {
      id: i + 1,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      employeeId: 1 + Math.floor(random() * 20),
      serviceTypeIds: [1 + Math.floor(random() * 3)],
    };
  });
}

function measure(label: string, query: SlotQuery, iterations: number): void {
  for (let i = 0; i < 2000; i++) bookableSlots(query); // warm up the JIT and the day cache
  const t0 = process.hrtime.bigint();
  let slots = 0;
  for (let i = 0; i < iterations; i++) slots += bookableSlots(query).length;
  const perCall = Number(process.hrtime.bigint() - t0) / iterations / 1000;
  console.log(`${label}: ${perCall.toFixed(1)} µs per call (${slots / iterations} slots)`);
}

const base: SlotQuery = {
  timezone: 'America/New_York',
  date: '2026-03-10',
  now: new Date('2026-03-09T12:00:00Z'),
  incrementMinutes: 15,
  durationMinutes: 30,
  companyHours: { open: '08:00', close: '20:00' },
  serviceTypeId: 1,
  capacity: 20,
  appointments: busyDay(500, 42),
};
// One employee with a light day among the 500 appointments.
const withEmployee: SlotQuery = {
  ...base,
  employeeId: 99,
  employeeHours: { open: '09:00', close: '17:00' },
  appointments: [
    ...base.appointments,
    { start: '2026-03-10T14:00:00.000Z', end: '2026-03-10T15:00:00.000Z', employeeId: 99, serviceTypeIds: [2] },
    { start: '2026-03-10T17:00:00.000Z', end: '2026-03-10T18:00:00.000Z', employeeId: 99, serviceTypeIds: [1] },
  ],
};
measure('500 appointments, 15-min increments, 08:00-20:00, capacity 20', base, 20_000);
measure('same, whole day 00:00-24:00', { ...base, companyHours: { open: '00:00', close: '00:00' } }, 20_000);
measure('same, chosen employee with personal hours 09:00-17:00', withEmployee, 20_000);
measure('0 appointments', { ...base, appointments: [] }, 20_000);

// "Any employee" under the scheduling rules (docs/decisions/27-scheduling-rules.md): 20 candidates
// with a lunch break, buffers, the same 500 appointments; one pass asks each start of every candidate.
const lunch = [
  { open: '08:00', close: '12:00' },
  { open: '13:00', close: '20:00' },
];
const candidates: Candidate[] = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, hours: lunch }));
const anyQuery: SlotQuery = { ...base, companyHours: lunch, bufferBeforeMinutes: 5, bufferAfterMinutes: 10, capacity: 200 };
for (let i = 0; i < 500; i++) slotsForAnyEmployee(anyQuery, candidates);
{
  const n = 1000;
  const t0 = process.hrtime.bigint();
  let slots = 0;
  for (let i = 0; i < n; i++) slots += slotsForAnyEmployee(anyQuery, candidates).length;
  const perCall = Number(process.hrtime.bigint() - t0) / n / 1000;
  console.log(`any employee, 20 candidates with a lunch break, buffers 5/10: ${perCall.toFixed(1)} µs per call (${slots / n} slots)`);
  const t1 = process.hrtime.bigint();
  // What it replaced: a full computation per candidate, then the union.
  for (let i = 0; i < n; i++) for (const c of candidates) bookableSlots({ ...anyQuery, employeeId: c.id, employeeHours: c.hours });
  console.log(`  one computation per candidate, as before: ${(Number(process.hrtime.bigint() - t1) / n / 1000).toFixed(1)} µs per call`);
}

// A request for 30 days in a zone not yet cached: the day cache is cold for every date.
const t0 = process.hrtime.bigint();
const zones = ['Europe/Paris', 'Asia/Tokyo', 'America/Chicago', 'Australia/Lord_Howe'];
let calls = 0;
for (const timezone of zones) {
  for (let d = 1; d <= 30; d++) {
    bookableSlots({ ...base, timezone, date: `2026-04-${String(d).padStart(2, '0')}`, now: new Date('2026-03-31T00:00:00Z') });
    calls++;
  }
}
console.log(`cold day cache: ${(Number(process.hrtime.bigint() - t0) / calls / 1000).toFixed(1)} µs per call`);
