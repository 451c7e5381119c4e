// Test fixtures for the offline store and outbox: a fresh database, appointment rows, a manual
// clock, an in-memory lock shared by "tabs", and a fake server that answers like the API does.
import { LocalDb, type OutboxEntry, type ServerAppointment } from '../local-db.ts';
import type { Clock, OutboxLock, SendResult } from '../outbox.ts';

let dbCount = 0;

/** A new, empty database (a second LocalDb with the same name is a second tab). */
export async function freshDb(name = `test-${++dbCount}-${Math.random()}`): Promise<LocalDb> {
  const db = new LocalDb(name);
  await db.open();
  return db;
}

export function appointmentRow(start: string, overrides: Partial<ServerAppointment> = {}): Omit<ServerAppointment, 'id' | 'version'> {
  return {
    company_id: 1,
    user_id: 7,
    employee_id: 3,
    start_time: start,
    end_time: start.replace(/T(\d\d)/, (_, h: string) => `T${String(Number(h) + 1).padStart(2, '0')}`),
    description: null,
    appointment_duration_option_id: null,
    status: 'booked',
    service_types: [],
    customer_name: 'Ada',
    employee_name: 'Bea',
    sms_consent: false,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

export function serverAppointment(id: number, start: string, version = 1, overrides: Partial<ServerAppointment> = {}): ServerAppointment {
  return { ...appointmentRow(start, overrides), id, version };
}

/** A clock the test moves by hand; timers fire only through `fire()`. */
export function manualClock(
  start = 1_000_000,
): Clock & { time: number; timers: { at: number; fn: () => void }[]; advance(ms: number): void } {
  const clock = {
    time: start,
    timers: [] as { at: number; fn: () => void }[],
    now: () => clock.time,
    random: () => 0.5,
    setTimeout(fn: () => void, ms: number) {
      const timer = { at: clock.time + ms, fn };
      clock.timers.push(timer);
      return timer;
    },
    clearTimeout(handle: unknown) {
      clock.timers = clock.timers.filter((t) => t !== handle);
    },
    advance(ms: number) {
      clock.time += ms;
    },
  };
  return clock;
}

/** Web Locks as seen from tabs of one origin: one holder at a time, the others wait their turn. */
export function memoryLock(): OutboxLock {
  let tail: Promise<void> = Promise.resolve();
  return async (fn) => {
    const previous = tail;
    let release!: () => void;
    tail = new Promise((resolve) => (release = resolve));
    await previous;
    try {
      await fn(async () => true);
    } finally {
      release();
    }
    return true;
  };
}

type Behaviour = SendResult | 'network' | 'lost';

/**
 * The appointment endpoints, in memory: Idempotency-Key replays, If-Match versions, 404 for a
 * missing row. `next(...)` scripts the answers to the coming requests (then it behaves normally);
 * 'network' fails before the server sees the request, 'lost' after it committed.
 */
export function fakeServer(delayMs = 0) {
  const rows = new Map<number, ServerAppointment>();
  const replies = new Map<string, SendResult>();
  const received: OutboxEntry[] = [];
  const script: Behaviour[] = [];
  let nextId = 100;

  function apply(entry: OutboxEntry): SendResult {
    const replay = replies.get(entry.idempotencyKey);
    if (replay) return replay;
    let result: SendResult;
    const fields = Object.fromEntries(
      Object.entries(entry.payload ?? {}).filter(([k]) => ['start_time', 'end_time', 'description', 'status'].includes(k)),
    );
    const row = rows.get(entry.appointmentId);
    if (entry.kind === 'create') {
      const created = { ...serverAppointment(nextId++, String(fields.start_time)), ...fields };
      rows.set(created.id, created);
      result = { ok: true, appointment: created };
    } else if (!row) {
      result = { ok: false, status: 404, code: 'not_found', message: 'Appointment not found' };
    } else if (entry.ifMatch !== row.version) {
      result = { ok: false, status: 412, code: 'version_mismatch', message: 'Changed elsewhere', current: row };
    } else if (entry.kind === 'delete') {
      rows.delete(row.id);
      result = { ok: true };
    } else {
      const updated = { ...row, ...fields, version: row.version + 1 };
      rows.set(row.id, updated);
      result = { ok: true, appointment: updated };
    }
    if (result.ok) replies.set(entry.idempotencyKey, result);
    return result;
  }

  return {
    rows,
    received,
    next(...behaviours: Behaviour[]) {
      script.push(...behaviours);
    },
    async send(entry: OutboxEntry): Promise<SendResult> {
      received.push(structuredClone(entry));
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const behaviour = script.shift();
      if (behaviour === 'network') throw new TypeError('Failed to fetch');
      if (behaviour === 'lost') {
        apply(entry);
        throw new TypeError('Failed to fetch');
      }
      return behaviour ?? apply(entry);
    },
  };
}

/** One queued outbox entry (an update of appointment 5 based on version 3, unless overridden). */
export function outboxEntry(overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    seq: 1,
    kind: 'update',
    appointmentId: 5,
    payload: { description: 'x' },
    idempotencyKey: 'key-1',
    ifMatch: 3,
    attempts: 0,
    nextAttemptAt: 0,
    state: 'queued',
    ...overrides,
  };
}
