// SQLite's online backup (better-sqlite3's db.backup): a consistent copy of a database other
// processes keep writing to (docs/decisions/32-privacy-and-operations.md).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface BackupResult {
  file: string;
  bytes: number;
  pages: number;
  ms: number;
}

/**
 * Copies `source` into `target` page by page; pages a writer changes meanwhile are copied again,
 * so the copy is the database as of one commit. The copy is checked (PRAGMA integrity_check) and
 * written as a single file (no -wal), so it can be moved or restored as is.
 */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}`);
  const started = performance.now();
  const out = path.resolve(target);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  fs.rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  let pages = 0;
  try {
    // 256 pages a step, then yield: writers keep going while the copy runs.
    await db.backup(partial, {
      progress: ({ totalPages }) => {
        pages = totalPages;
        return 256;
      },
    });
  } finally {
    db.close();
  }
  const copy = new Database(partial, { fileMustExist: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`The copy failed its integrity check: ${String(check)}`);
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  fs.renameSync(partial, out);
  return { file: out, bytes: fs.statSync(out).size, pages, ms: Math.round(performance.now() - started) };
}
