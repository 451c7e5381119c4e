// `npm run bench -- --only messages` (issue 12, "Measured"): 1,000 emails queued at once reach a real
// local SMTP server (smtp-server), sent by two server processes sharing the outbox; measures the time
// from the commit that queued them to the last one received, and counts any message received twice.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { connect, migrateToLatest } from '@bookwell/db';
import { spawnServer, type ServerProcess } from '../../api/src/testing/process.ts';
import { messageIdOf, startTestSmtp } from '../../api/src/testing/smtp.ts';
import { enqueueEmail } from '../../api/src/features/notifications/outbox.repository.ts';

export const MESSAGES = 1000;
const PROCESSES = 2;
const GIVE_UP_MS = 180_000;

/** A fresh database: SQLite in a temporary folder, or a new PostgreSQL database under BENCH_DATABASE_URL. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-bench-messages-'));
    return { url: `file:${path.join(dir, 'messages.db')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `bw_bench_msg_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const query = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await query(`create database ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => query(`drop database if exists ${name} with (force)`) };
}

export async function benchMessages(bundle?: string) {
  const database = await freshDatabase();
  const h = connect(database.url);
  await migrateToLatest(h);
  const smtp = await startTestSmtp();
  const servers: ServerProcess[] = [];
  try {
    const queuedAt = Date.now();
    await h.db.transaction().execute(async (trx) => {
      const now = new Date();
      for (let i = 0; i < MESSAGES; i++) {
        await enqueueEmail(trx, { to: `bench${i}@example.test`, subject: `Message ${i}`, text: `Message ${i}`, kind: 'confirmation' }, now);
      }
    });
    const committedAt = Date.now();
    // Two server processes start on the backlog at once and share it (their pass at start drains it):
    // the clock runs from the commit, so their start-up time counts too.
    servers.push(
      ...(await Promise.all(
        Array.from({ length: PROCESSES }, () =>
          spawnServer({ DATABASE_URL: database.url, SMTP_URL: smtp.url, LOG_LEVEL: 'warn' }, 60_000, [], bundle),
        ),
      )),
    );
    const deadline = committedAt + GIVE_UP_MS;
    while (smtp.messages.length < MESSAGES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const lastAt = Date.now();
    // A little longer: anything sent twice would arrive now.
    await new Promise((r) => setTimeout(r, 2000));
    const ids = smtp.messages.map((m) => messageIdOf(m.raw));
    const rows = await h.db
      .selectFrom('outbox_messages')
      .select((eb) => ['state', eb.fn.countAll<number | string>().as('n')])
      .groupBy('state')
      .execute();
    return {
      database: h.dialect,
      messages: MESSAGES,
      server_processes: PROCESSES,
      queue_seconds: Math.round((committedAt - queuedAt) / 100) / 10,
      received: smtp.messages.length,
      distinct_message_ids: new Set(ids).size,
      sent_twice: smtp.messages.length - new Set(ids).size,
      seconds_to_last: Math.round((lastAt - committedAt) / 100) / 10,
      within_60_s: smtp.messages.length >= MESSAGES && lastAt - committedAt <= 60_000,
      per_second: Math.round(smtp.messages.length / Math.max(0.001, (lastAt - committedAt) / 1000)),
      rows_by_state: Object.fromEntries(rows.map((r) => [r.state, Number(r.n)])),
    };
  } finally {
    for (const s of servers) await s.stop();
    await smtp.close();
    await h.close();
    await database.drop();
  }
}
