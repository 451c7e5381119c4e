import { bookableSlots, windowDates } from './availability.ts';
const q = { timezone: 'America/New_York', date: '2026-03-10', now: new Date('2026-03-09T12:00:00Z'), incrementMinutes: 15, durationMinutes: 30, companyHours: { open: '08:00', close: '20:00' }, serviceTypeId: 1, capacity: 60, appointments: [] };
for (let i = 0; i < 2000; i++) bookableSlots(q);
let t0 = performance.now(); for (let i = 0; i < 20000; i++) bookableSlots(q); console.log('slots', (performance.now()-t0)/20);
t0 = performance.now(); for (let i = 0; i < 20000; i++) windowDates('America/New_York', q.now, 1); console.log('windowDates', (performance.now()-t0)/20);
t0 = performance.now(); let s=0; for (let i = 0; i < 20000*47; i++) s+= new Date(1773100000000+i).toISOString().length; console.log('iso x47', (performance.now()-t0)/20);
