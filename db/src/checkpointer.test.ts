// Background WAL checkpoints (db/src/checkpointer.ts): with them the server's writes never wait for
// a checkpoint, yet the log is still copied back and started again from its beginning, and the
// data is all there for another connection; without them the log of the same writes keeps growing
// up to the main connection's raised automatic checkpoint.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type DatabaseHandle } from './connect.ts';
import { BACKSTOP_PAGES } from './checkpointer.ts';

const dirs: string[] = [];
const handles: DatabaseHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function writeMany(backgroundCheckpoints: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
  dirs.push(dir);
  const file = path.join(dir, 'db.sqlite');
  const h = connect(`file:${file}`, { backgroundCheckpoints });
  handles.push(h);
  // Without the worker, the same raised backstop: what copies the log back is then only the worker.
  if (!backgroundCheckpoints) await sql.raw(`pragma wal_autocheckpoint = ${BACKSTOP_PAGES}`).execute(h.db);
  await sql`create table notes (id integer primary key, body text not null)`.execute(h.db);
  // 2,000 commits of one row each: about 2,000 log frames, under the raised backstop of 10,000.
  for (let i = 0; i < 2000; i++) await sql`insert into notes (body) values (${`note ${i}`})`.execute(h.db);
  await new Promise((resolve) => setTimeout(resolve, 400));
  // A write after the checkpoint starts the log again when all of it was copied.
  await sql`insert into notes (body) values ('last')`.execute(h.db);
  // Another connection reads how many frames the log holds (a passive checkpoint reports it).
  const other = new SQLite(file);
  const [{ log }] = other.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  other.close();
  return { file, h, frames: log };
}

describe('background WAL checkpoints on SQLite', () => {
  it('copy the log back while the server writes, so the next write starts it again', async () => {
    const { file, frames } = await writeMany(true);
    expect(frames, 'frames in the log after the last write').toBeLessThan(50);
    const other = new SQLite(file, { readonly: true });
    expect(other.prepare('select count(*) as n from notes').get()).toEqual({ n: 2001 });
    other.close();
  });

  it('are what keeps the log short: the same writes without them leave it long', async () => {
    const { frames } = await writeMany(false);
    expect(frames).toBeGreaterThan(1000);
  });

  it('stop with the connection', async () => {
    const { h } = await writeMany(true);
    await h.close();
    handles.splice(handles.indexOf(h), 1);
  });
});
