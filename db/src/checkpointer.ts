// Background WAL checkpoints for the server's SQLite database. In WAL mode every commit appends the
// pages it changed to the -wal file, and by default the commit that takes the log past 1,000 pages
// copies them all back into the database file: about one booking in thirty-five (each writes some
// 29 pages: the appointment, its indexes, its service link, the emails, the audit row, the sync
// change) paid for the others on the event loop, which measured as a third of a booking's commit.
// Here a worker thread with its own connection runs a PASSIVE checkpoint every `everyMs`: it copies
// what no reader still needs without taking any lock a writer waits for, on the machine's other
// core, and the next writer starts the log again from its beginning once all of it is copied. The
// main connection keeps an automatic checkpoint as a backstop at `backstopPages`, should the worker
// ever fall behind or stop.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// CommonJS evaluated in the worker; the driver's path comes from the main thread's resolution, so
// it loads the same better-sqlite3 whatever the working directory (the bundled server included).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
let timer;
const tick = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked this time: the next tick tries again, and the backstop remains.
  }
  timer = setTimeout(tick, workerData.everyMs);
};
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
tick();
`;

export interface Checkpointer {
  /** Stops the worker and closes its connection. */
  stop(): Promise<void>;
}

export const BACKSTOP_PAGES = 10_000;

export function startCheckpointer(file: string, everyMs = 100): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, everyMs } });
  // Never what keeps a process alive; an error in it leaves the backstop doing the work.
  worker.unref();
  worker.on('error', (err) => console.error('sqlite checkpointer stopped:', err.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Held while it stops: with nothing else left to run, the process would end before the caller resumes.
      worker.ref();
      worker.postMessage('stop');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)));
      await Promise.race([exited, timeout]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
