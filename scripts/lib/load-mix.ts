// A bounded, realistic mix of what a business and its customers do all day, sent over HTTP to one
// base URL (one process, or nginx in front of several): browsing available dates and slots,
// anonymous and signed-in customer bookings, staff reading and editing the calendar, logins and
// page loads. Then the checks a business relies on afterwards: no double booking (per employee,
// buffers included, and no service over its capacity), every acknowledged write present as
// acknowledged, every email sent once. Used by scripts/scale-out.test.ts (issue 14 point 8) and
// `npm run bench:soak` (scripts/bench-soak.ts); see docs/decisions/33-scale-out.md.
import crypto from 'node:crypto';
import type { DatabaseHandle } from '@bookwell/db';
import { messageIdOf, type ReceivedMail } from '../../api/src/testing/smtp.ts';

export const MIX_PASSWORD = 'load-mix-secret-1';
const TZ = 'America/New_York';

export interface MixService {
  id: number;
  duration: number;
  capacity: number;
  before: number;
  after: number;
}

export interface MixWorld {
  companyId: number;
  slug: string;
  ownerEmail: string;
  ownerToken: string;
  staff: { id: number; email: string }[];
  services: MixService[];
  customers: { email: string }[];
}

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers of many shapes
  upstream: string | null;
}

async function send(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      /* leave the text */
    }
  }
  return { status: res.status, body, upstream: res.headers.get('x-upstream') } as Answer;
}

async function must(p: Promise<Answer>, ok: number[], what: string): Promise<Answer> {
  const r = await p;
  if (!ok.includes(r.status)) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

/**
 * The company the mix runs against, made through the API like a real owner would: 7-day opening
 * hours 06:00-22:00, a 60-day booking window, four staff members (passwords set with
 * `setPassword`, standing in for the invitation link), four services (single, buffered, a group
 * class of 3, and one only two staff perform) and `customers` registered customer accounts.
 */
export async function setupMixWorld(
  base: string,
  setPassword: (email: string, password: string) => Promise<void>,
  customers = 12,
): Promise<MixWorld> {
  const tag = crypto.randomBytes(3).toString('hex');
  const ownerEmail = `owner-${tag}@load-mix.test`;
  const reg = await must(
    send(base, 'POST', '/api/register', {
      body: { name: 'Olivia Owner', email: ownerEmail, password: MIX_PASSWORD, company_name: `Load Mix ${tag}`, timezone: TZ },
    }),
    [200, 201],
    'register',
  );
  const ownerToken: string = reg.body.token;
  const me = await must(send(base, 'GET', '/api/me', { token: ownerToken }), [200], 'me');
  const companyId: number = me.body.company_id;
  const company = await must(send(base, 'GET', `/api/companies/${companyId}`, { token: ownerToken }), [200], 'company');
  const slug: string = company.body.slug;
  await must(
    send(base, 'PATCH', `/api/companies/${companyId}`, { token: ownerToken, body: { booking_window_days: 60 } }),
    [200],
    'booking window',
  );
  for (let d = 1; d <= 7; d++)
    await must(
      send(base, 'POST', '/api/operating-hours', { token: ownerToken, body: { day_of_week: d, open_time: '06:00', close_time: '22:00' } }),
      [200, 201],
      'hours',
    );
  const staff: { id: number; email: string }[] = [{ id: me.body.id, email: ownerEmail }];
  for (const name of ['Emma Stylist', 'Noah Barber', 'Ava Colorist']) {
    const email = `${name.split(' ')[0]!.toLowerCase()}-${tag}@load-mix.test`;
    const r = await must(send(base, 'POST', '/api/users/employee', { token: ownerToken, body: { name, email } }), [201], 'employee');
    await setPassword(email, MIX_PASSWORD);
    staff.push({ id: r.body.id, email });
  }
  const serviceDefs = [
    { name: 'Haircut', duration_minutes: 30, available_slots: 1 },
    { name: 'Colour', duration_minutes: 60, available_slots: 1, buffer_before_minutes: 10, buffer_after_minutes: 15 },
    { name: 'Group class', duration_minutes: 45, available_slots: 3 },
    { name: 'Beard trim', duration_minutes: 30, available_slots: 1, buffer_after_minutes: 5, employee_ids: [staff[1]!.id, staff[2]!.id] },
  ];
  const services: MixService[] = [];
  for (const s of serviceDefs) {
    const r = await must(send(base, 'POST', '/api/service-types', { token: ownerToken, body: s }), [201], 'service');
    services.push({
      id: r.body.service_type.id,
      duration: s.duration_minutes,
      capacity: s.available_slots,
      before: s.buffer_before_minutes ?? 0,
      after: s.buffer_after_minutes ?? 0,
    });
  }
  const people: { email: string }[] = [];
  for (let i = 0; i < customers; i++) {
    const email = `customer${i}-${tag}@load-mix.test`;
    await must(
      send(base, 'POST', '/api/register', {
        body: { name: `Customer ${i}`, email, password: MIX_PASSWORD, role: 'customer', company_slug: slug },
      }),
      [200, 201],
      'customer',
    );
    people.push({ email });
  }
  return { companyId, slug, ownerEmail, ownerToken, staff, services, customers: people };
}

/** What the server acknowledged about one appointment, as the last answer said it. */
export interface AckedAppointment {
  id: number;
  serviceId: number;
  start: string;
  status: 'booked' | 'cancelled';
  description: string | null;
  email: string;
  kind: 'anonymous' | 'customer';
}

export interface MixResult {
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  byOperation: Record<string, { count: number; p50: number; p99: number; statuses: Record<string, number> }>;
  statuses: Record<string, number>;
  /** Answers 500 and above, and requests that got no answer at all. */
  serverErrors: { op: string; status: number; body: string }[];
  upstreams: Record<string, number>;
  acked: AckedAppointment[];
  bookings: { attempted: number; acknowledged: number; refused: number };
  edits: { attempted: number; acknowledged: number };
}

export interface MixOptions {
  durationMs: number;
  /** Simultaneous virtual users (each waits for its answer before the next step). */
  concurrency?: number;
  /** Leave the pages (app shell, booking page) out, when no PWA build is served. */
  pages?: boolean;
  onProgress?: (done: number, elapsedMs: number) => void;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/** Each operation's share of the mix: mostly browsing, as on a real booking page. */
const WEIGHTS = {
  dates: 14,
  slots: 26,
  book_anonymous: 10,
  book_customer: 6,
  staff_list: 12,
  staff_get: 6,
  staff_edit: 8,
  customer_list: 4,
  login: 3,
  me: 4,
  page: 7,
} as const;
type Op = keyof typeof WEIGHTS;

/**
 * Runs the mix until `durationMs` has passed (steps in flight finish). Every virtual user owns the
 * appointments it booked, so the last acknowledged answer for each is its expected final state.
 */
export async function runMix(base: string, world: MixWorld, opts: MixOptions): Promise<MixResult> {
  const concurrency = opts.concurrency ?? 12;
  const ops = (Object.entries(WEIGHTS) as [Op, number][]).filter(([op]) => opts.pages !== false || op !== 'page');
  const totalWeight = ops.reduce((s, [, w]) => s + w, 0);
  const chooseOp = (): Op => {
    let r = Math.random() * totalWeight;
    for (const [op, w] of ops) if ((r -= w) < 0) return op;
    return ops[0]![0];
  };
  const latencies: Record<string, number[]> = {};
  const opStatuses: Record<string, Record<string, number>> = {};
  const statuses: Record<string, number> = {};
  const serverErrors: MixResult['serverErrors'] = [];
  const upstreams: Record<string, number> = {};
  const acked = new Map<number, AckedAppointment>();
  const bookings = { attempted: 0, acknowledged: 0, refused: 0 };
  const edits = { attempted: 0, acknowledged: 0 };
  let requests = 0;

  // Staff and customer sessions, signed in once up front (logins are part of the mix too).
  const login = async (email: string) =>
    (await must(send(base, 'POST', '/api/login', { body: { email, password: MIX_PASSWORD } }), [200], 'login')).body.token as string;
  const staffTokens = [world.ownerToken, ...(await Promise.all(world.staff.slice(1).map((s) => login(s.email))))];
  const customerTokens = await Promise.all(world.customers.map((c) => login(c.email)));

  async function timed(op: string, run: () => Promise<Answer>): Promise<Answer | null> {
    const t0 = performance.now();
    let r: Answer;
    try {
      r = await run();
    } catch (err) {
      requests++;
      serverErrors.push({ op, status: 0, body: String(err) });
      statuses['no answer'] = (statuses['no answer'] ?? 0) + 1;
      return null;
    }
    const ms = performance.now() - t0;
    requests++;
    (latencies[op] ??= []).push(ms);
    const s = String(r.status);
    statuses[s] = (statuses[s] ?? 0) + 1;
    const per = (opStatuses[op] ??= {});
    per[s] = (per[s] ?? 0) + 1;
    if (r.upstream) for (const u of r.upstream.split(', ')) upstreams[u] = (upstreams[u] ?? 0) + 1;
    if (r.status >= 500 && serverErrors.length < 200)
      serverErrors.push({ op, status: r.status, body: JSON.stringify(r.body).slice(0, 300) });
    return r;
  }

  const q = (params: Record<string, string | number | undefined>) =>
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');

  async function user(index: number, deadline: number) {
    const mine: AckedAppointment[] = [];
    const dates = new Map<number, string[]>();
    let n = 0;
    const datesOf = async (service: MixService): Promise<string[]> => {
      const cached = dates.get(service.id);
      if (cached && cached.length && Math.random() < 0.9) return cached;
      const r = await timed('dates', () =>
        send(base, 'GET', `/api/appointments/available-dates?${q({ company_id: world.companyId, service_type_id: service.id })}`),
      );
      const list: string[] = r?.status === 200 ? r.body.dates : [];
      dates.set(service.id, list);
      return list;
    };
    const slotsOf = async (service: MixService, employeeId?: number, rush = false): Promise<{ start: string }[]> => {
      const ds = await datesOf(service);
      if (!ds.length) return [];
      // The first weeks are busiest, as real calendars are; a rush is everyone after the first free day.
      const date = rush ? ds[0]! : Math.random() < 0.7 ? pick(ds.slice(0, 21)) : pick(ds);
      const r = await timed('slots', () =>
        send(
          base,
          'GET',
          `/api/appointments/available-slots?${q({ company_id: world.companyId, service_type_id: service.id, date, employee_id: employeeId })}`,
        ),
      );
      return r?.status === 200 ? r.body.slots : [];
    };
    const book = async (kind: 'anonymous' | 'customer') => {
      const service = pick(world.services);
      // A quarter of the bookings race for the earliest free time, so bookings collide as on a busy day.
      const rush = Math.random() < 0.25;
      const slots = await slotsOf(service, undefined, rush);
      if (!slots.length) return;
      const start = rush ? slots[0]!.start : pick(slots).start;
      const customerIndex = Math.floor(Math.random() * world.customers.length);
      const email =
        kind === 'anonymous'
          ? `anon-${index}-${n}-${crypto.randomBytes(2).toString('hex')}@load-mix.test`
          : world.customers[customerIndex]!.email;
      const body =
        kind === 'anonymous'
          ? {
              company_id: world.companyId,
              service_type_ids: [service.id],
              start_time: start,
              customer: { name: `Walk In ${index}-${n}`, email, phone: '+1 415 555 0123' },
            }
          : { company_id: world.companyId, service_type_ids: [service.id], start_time: start };
      const key = crypto.randomUUID();
      const token = kind === 'customer' ? customerTokens[customerIndex] : undefined;
      bookings.attempted++;
      const r = await timed(`book_${kind}`, () =>
        send(base, 'POST', '/api/appointments', { body, token, headers: { 'Idempotency-Key': key } }),
      );
      if (r?.status === 201) {
        bookings.acknowledged++;
        const a: AckedAppointment = {
          id: r.body.id,
          serviceId: service.id,
          start: r.body.start_time,
          status: 'booked',
          description: r.body.description,
          email,
          kind,
        };
        acked.set(a.id, a);
        mine.push(a);
        // A client that lost the answer sends again with its key: the same booking, not a second one.
        if (Math.random() < 0.1) {
          const again = await timed(`book_${kind}`, () =>
            send(base, 'POST', '/api/appointments', { body, token, headers: { 'Idempotency-Key': key } }),
          );
          if (again && again.status !== 201)
            serverErrors.push({ op: 'replay', status: again.status, body: JSON.stringify(again.body).slice(0, 300) });
          else if (again && again.body.id !== a.id)
            serverErrors.push({ op: 'replay', status: again.status, body: `replay made ${again.body.id}, first ${a.id}` });
        }
      } else if (r && r.status === 409) bookings.refused++;
    };
    const staffEdit = async () => {
      const live = mine.filter((a) => a.status === 'booked');
      if (!live.length) return book('anonymous');
      const a = pick(live);
      const roll = Math.random();
      let body: Record<string, unknown>;
      if (roll < 0.45) body = { description: `Note ${index}-${n}: ${crypto.randomBytes(3).toString('hex')}` };
      else if (roll < 0.8) {
        const service = world.services.find((s) => s.id === a.serviceId)!;
        const slots = await slotsOf(service);
        if (!slots.length) return;
        body = { start_time: pick(slots).start };
      } else body = { status: 'cancelled' };
      edits.attempted++;
      const r = await timed('staff_edit', () => send(base, 'PATCH', `/api/appointments/${a.id}`, { token: world.ownerToken, body }));
      if (r?.status === 200) {
        edits.acknowledged++;
        a.start = r.body.start_time;
        a.status = r.body.status;
        a.description = r.body.description;
      }
    };

    while (performance.now() < deadline) {
      n++;
      const op = chooseOp();
      switch (op) {
        case 'dates':
          dates.delete(pick(world.services).id);
          await datesOf(pick(world.services));
          break;
        case 'slots': {
          const service = pick(world.services);
          await slotsOf(service, Math.random() < 0.3 ? pick(world.staff).id : undefined);
          break;
        }
        case 'book_anonymous':
          await book('anonymous');
          break;
        case 'book_customer':
          await book('customer');
          break;
        case 'staff_list': {
          const from = new Date(Date.now() + Math.floor(Math.random() * 30) * 86_400_000);
          const to = new Date(from.getTime() + (Math.random() < 0.5 ? 1 : 7) * 86_400_000);
          await timed('staff_list', () =>
            send(base, 'GET', `/api/appointments?${q({ start_date: from.toISOString(), end_date: to.toISOString() })}`, {
              token: pick(staffTokens),
            }),
          );
          break;
        }
        case 'staff_get': {
          const a = mine.length ? pick(mine) : null;
          if (a) await timed('staff_get', () => send(base, 'GET', `/api/appointments/${a.id}`, { token: pick(staffTokens) }));
          else
            await timed('staff_get', () =>
              send(base, 'GET', `/api/service-types?${q({ company_id: world.companyId })}`, { token: pick(staffTokens) }),
            );
          break;
        }
        case 'staff_edit':
          await staffEdit();
          break;
        case 'customer_list':
          await timed('customer_list', () => send(base, 'GET', '/api/appointments', { token: pick(customerTokens) }));
          break;
        case 'login': {
          const email = Math.random() < 0.5 ? pick(world.staff).email : pick(world.customers).email;
          await timed('login', () => send(base, 'POST', '/api/login', { body: { email, password: MIX_PASSWORD } }));
          break;
        }
        case 'me':
          await timed('me', () => send(base, 'GET', '/api/me', { token: Math.random() < 0.5 ? pick(staffTokens) : pick(customerTokens) }));
          break;
        case 'page':
          await timed('page', () => send(base, 'GET', Math.random() < 0.5 ? `/public/booking/${world.slug}` : '/calendar'));
          break;
      }
      if (index === 0 && n % 50 === 0) opts.onProgress?.(requests, performance.now() - started);
    }
  }

  const started = performance.now();
  const deadline = started + opts.durationMs;
  await Promise.all(Array.from({ length: concurrency }, (_, i) => user(i, deadline)));
  const seconds = (performance.now() - started) / 1000;
  const all = Object.values(latencies)
    .flat()
    .sort((a, b) => a - b);
  const byOperation: MixResult['byOperation'] = {};
  for (const [op, ls] of Object.entries(latencies)) {
    const sorted = [...ls].sort((a, b) => a - b);
    byOperation[op] = { count: ls.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), statuses: opStatuses[op] ?? {} };
  }
  return {
    seconds: Math.round(seconds * 10) / 10,
    requests,
    requestsPerSecond: Math.round(requests / seconds),
    latencyMs: { p50: percentile(all, 50), p99: percentile(all, 99), max: Math.round(all[all.length - 1] ?? 0) },
    byOperation,
    statuses,
    serverErrors,
    upstreams,
    acked: [...acked.values()],
    bookings,
    edits,
  };
}

export interface IntegrityReport {
  bookedAppointments: number;
  /** An employee in two overlapping holds (buffers included) that are not one group session. */
  employeeOverlaps: string[];
  /** A moment where a service holds more appointments than its capacity (buffers included). */
  overCapacity: string[];
  /** Acknowledged bookings and edits missing, or stored differently than acknowledged. */
  missingOrDifferent: string[];
  emails: {
    received: number;
    /** Message-IDs received more than once. */
    duplicated: string[];
    /** Acknowledged bookings without exactly one confirmation received by their customer. */
    confirmationProblems: string[];
    /** Outbox emails not sent when the checks ran. */
    unsent: number;
  };
}

/**
 * Reads the database after the mix and checks what the business relies on. Waits up to `waitMs`
 * for the outbox to send everything (the dispatchers of every process claim rows one by one).
 */
export async function checkIntegrity(
  h: DatabaseHandle,
  world: MixWorld,
  result: MixResult,
  mail: ReceivedMail[],
  waitMs = 60_000,
): Promise<IntegrityReport> {
  const services = new Map(world.services.map((s) => [s.id, s]));
  const rows = await h.db
    .selectFrom('appointments as a')
    .innerJoin('appointment_service_types as l', 'l.appointment_id', 'a.id')
    .select(['a.id', 'a.employee_id', 'a.start_time', 'a.end_time', 'a.status', 'a.description', 'l.service_type_id'])
    .where('a.company_id', '=', world.companyId)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const booked = rows.filter((r) => r.status === 'booked');
  const holds = booked.map((r) => {
    const s = services.get(r.service_type_id);
    return {
      ...r,
      from: Date.parse(r.start_time) - (s?.before ?? 0) * 60_000,
      to: Date.parse(r.end_time) + (s?.after ?? 0) * 60_000,
      capacity: s?.capacity ?? 1,
    };
  });
  holds.sort((a, b) => a.from - b.from);
  const employeeOverlaps: string[] = [];
  const overCapacity: string[] = [];
  // Holds last at most a few hours, so each one is compared with the next few only.
  for (let i = 0; i < holds.length; i++) {
    const a = holds[i]!;
    let concurrent = 1;
    for (let j = 0; j < holds.length; j++) {
      const b = holds[j]!;
      if (j === i || b.from >= a.to) {
        if (b.from >= a.to) break;
        continue;
      }
      if (b.to <= a.from) continue;
      if (j > i && a.employee_id !== null && a.employee_id === b.employee_id) {
        const groupSession = a.service_type_id === b.service_type_id && a.start_time === b.start_time && a.capacity > 1;
        if (!groupSession) employeeOverlaps.push(`employee ${a.employee_id}: ${a.id} ${a.start_time} and ${b.id} ${b.start_time}`);
      }
      if (b.service_type_id === a.service_type_id && b.from <= a.from) concurrent++;
    }
    if (concurrent > a.capacity) overCapacity.push(`service ${a.service_type_id} at ${a.start_time}: ${concurrent} > ${a.capacity}`);
  }

  const missingOrDifferent: string[] = [];
  for (const a of result.acked) {
    const row = byId.get(a.id);
    if (!row) missingOrDifferent.push(`${a.id} missing`);
    else if (
      row.status !== a.status ||
      Date.parse(row.start_time) !== Date.parse(a.start) ||
      (row.description ?? null) !== (a.description ?? null)
    )
      missingOrDifferent.push(
        `${a.id}: stored ${row.status} ${row.start_time} ${row.description}, acknowledged ${a.status} ${a.start} ${a.description}`,
      );
  }

  // The outbox drains in the background: wait until nothing is pending or the time is up.
  const deadline = Date.now() + waitMs;
  let unsent = 0;
  for (;;) {
    // Reminders wait for their time (a day before the appointment): only what is due counts.
    const open = await h.db
      .selectFrom('outbox_messages')
      .select(['state', 'due_at'])
      .where('channel', '=', 'email')
      .where('state', 'not in', ['sent', 'cancelled'])
      .execute();
    unsent = open.filter((r) => new Date(r.due_at as string | Date).getTime() <= Date.now()).length;
    if (unsent === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const sentRows = await h.db
    .selectFrom('outbox_messages')
    .select(['appointment_id', 'kind', 'to_address', 'message_id', 'state'])
    .where('channel', '=', 'email')
    .execute();
  // Every sent row's Message-ID has arrived once it is marked sent (the SMTP answer came first).
  const receivedIds = new Map<string, string[]>();
  for (const m of mail) {
    const id = messageIdOf(m.raw);
    if (id) receivedIds.set(id, [...(receivedIds.get(id) ?? []), ...m.to.map((t) => t.toLowerCase())]);
  }
  const counts = new Map<string, number>();
  for (const m of mail) {
    const id = messageIdOf(m.raw) ?? '(none)';
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const duplicated = [...counts.entries()].filter(([, c]) => c > 1).map(([id, c]) => `${id} x${c}`);
  const confirmationProblems: string[] = [];
  const confirmations = new Map<number, typeof sentRows>();
  for (const r of sentRows)
    if (r.kind === 'confirmation' && r.appointment_id !== null)
      confirmations.set(r.appointment_id, [...(confirmations.get(r.appointment_id) ?? []), r]);
  for (const a of result.acked) {
    const rowsFor = (confirmations.get(a.id) ?? []).filter((r) => r.to_address.toLowerCase() === a.email.toLowerCase());
    if (rowsFor.length !== 1) {
      confirmationProblems.push(`appointment ${a.id}: ${rowsFor.length} confirmation rows for ${a.email}`);
      continue;
    }
    const to =
      receivedIds.get(rowsFor[0]!.message_id.replace(/^<?/, '<').replace(/>?$/, '>')) ?? receivedIds.get(rowsFor[0]!.message_id) ?? [];
    if (to.filter((t) => t === a.email.toLowerCase()).length !== 1)
      confirmationProblems.push(`appointment ${a.id}: confirmation ${rowsFor[0]!.message_id} received ${to.length} times by ${a.email}`);
  }
  return {
    bookedAppointments: booked.length,
    employeeOverlaps,
    overCapacity,
    missingOrDifferent,
    emails: { received: mail.length, duplicated, confirmationProblems, unsent },
  };
}

/** True when the report shows nothing wrong. */
export function integrityHolds(r: IntegrityReport): boolean {
  return (
    !r.employeeOverlaps.length &&
    !r.overCapacity.length &&
    !r.missingOrDifferent.length &&
    !r.emails.duplicated.length &&
    !r.emails.confirmationProblems.length &&
    r.emails.unsent === 0
  );
}
