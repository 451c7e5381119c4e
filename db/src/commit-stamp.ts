// SQLite's commit stamp: the header of the WAL index, which every commit rewrites, whichever
// connection or process makes it (docs/decisions/28-availability-generation.md, "Generation reads
// skipped while nothing commits").
import fs from 'node:fs';

/** The WAL index header's layout version (https://www.sqlite.org/walformat.html, "WAL-Index Header"). */
const WAL_INDEX_VERSION = 3007000;
/** The header is 48 bytes, kept twice in a row: a writer rewrites the second copy, then the first. */
const HEADER_BYTES = 48;
/** Offset of isInit, 1 once the header is valid. */
const IS_INIT = 12;

export interface CommitStamp {
  /**
   * A text that changes with every commit to the database by anyone (the header's change counter,
   * last frame, salts and checksums move together), or null when it cannot be told: no WAL index
   * yet, or a commit writing the header at this very moment. Equal stamps mean nothing was
   * committed in between. A transaction still open commits nothing, so it changes nothing here.
   */
  read(): string | null;
  close(): void;
}

/**
 * The stamp of a SQLite file in WAL mode, read from its `-shm` file: one `pread` of 96 bytes, where
 * even a primary-key read takes and releases a shared lock with `fcntl` (about a tenth of a cached
 * availability answer's CPU on the machines measured). SQLite maps the same file in memory, and
 * the operating system's page cache makes the two views one.
 */
export function walCommitStamp(file: string): CommitStamp {
  let fd: number | null = null;
  const buf = Buffer.alloc(2 * HEADER_BYTES);
  return {
    read() {
      try {
        fd ??= fs.openSync(`${file}-shm`, 'r');
        if (fs.readSync(fd, buf, 0, buf.length, 0) !== buf.length) return null;
      } catch {
        return null;
      }
      const version = buf.readUInt32LE(0) === WAL_INDEX_VERSION || buf.readUInt32BE(0) === WAL_INDEX_VERSION;
      // Two different copies: read halfway through a commit's rewrite.
      if (!version || buf[IS_INIT] !== 1 || buf.compare(buf, HEADER_BYTES, 2 * HEADER_BYTES, 0, HEADER_BYTES) !== 0) return null;
      return buf.toString('hex', 0, HEADER_BYTES);
    },
    close() {
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
  };
}
