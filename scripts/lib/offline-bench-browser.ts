// What the offline benchmark runs inside the page (scripts/bench-offline.ts). Plain JavaScript
// sources rather than functions: the scripts compile without the DOM library, and tsx's compiled
// functions can carry helpers (__name) that do not exist in the page.
//
// The local store is read and written with the bare IndexedDB API, in the shapes Dexie keeps
// (pwa/src/offline/local-db.ts: one object store per table, `meta` rows `{ key, value }`, outbox
// entries keyed by an auto-incremented `seq`).

/** Helpers every snippet starts with. */
const IDB = `
  const idbOpen = async (name) => {
    const known = (await indexedDB.databases()).some((d) => d.name === name);
    if (!known) return null; // opening would create it, under the app's feet
    return await new Promise((resolve, reject) => {
      const r = indexedDB.open(name);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  };
  const idbReq = (r) => new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
`;

const call = (body: string, arg: unknown) => `(async (arg) => { ${IDB} ${body} })(${JSON.stringify(arg)})`;

export interface StoreState {
  appointments: number;
  outbox: number;
  cursor: string | null;
}

/** Counts of the local store's appointments and outbox entries, and its sync cursor (null before the store exists). */
export const readStore = (dbName: string) =>
  call(
    `
    const db = await idbOpen(arg);
    if (!db) return null;
    try {
      const tx = db.transaction(['appointments', 'outbox', 'meta'], 'readonly');
      const [appointments, outbox, cursor] = await Promise.all([
        idbReq(tx.objectStore('appointments').count()),
        idbReq(tx.objectStore('outbox').count()),
        idbReq(tx.objectStore('meta').get('cursor')),
      ]);
      return { appointments, outbox, cursor: cursor ? String(cursor.value) : null };
    } finally {
      db.close();
    }
  `,
    dbName,
  );

/** How many appointments the week view shows: drawn events plus those behind each "+N more" link. */
const DRAWN_COUNT = `
  const drawnCount = () => {
    let n = document.querySelectorAll('.fc-timegrid-event').length;
    for (const el of document.querySelectorAll('.fc-timegrid-more-link')) {
      const m = /\\+(\\d+)/.exec(el.textContent || '');
      if (m) n += Number(m[1]);
    }
    return n;
  };
`;

export const drawnCount = `(() => { ${DRAWN_COUNT} return drawnCount(); })()`;

/**
 * Where an offline reload's time went: the document's arrival and parsing (Navigation Timing), the
 * first frame with the calendar's grid and with an event (noted by drawnTimer), in milliseconds
 * since navigation start.
 */
export const reloadMarks = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const marks = window.__benchMarks || {};
  return {
    document_ms: nav ? Math.round(nav.responseEnd) : null,
    dom_content_loaded_ms: nav ? Math.round(nav.domContentLoadedEventEnd) : null,
    calendar_grid_ms: marks.calendar === undefined ? null : Math.round(marks.calendar),
    first_event_ms: marks.firstEvent === undefined ? null : Math.round(marks.firstEvent),
  };
})()`;

/**
 * Init script: on every calendar load, checks each animation frame whether the week's `target`
 * appointments are drawn, and notes when (performance.now(): milliseconds since navigation start).
 */
export const drawnTimer = (target: number) => `(() => {
  ${DRAWN_COUNT}
  if (!location.pathname.startsWith('/calendar')) return;
  const marks = (window.__benchMarks = {});
  const tick = () => {
    if (marks.calendar === undefined && document.querySelector('.fc')) marks.calendar = performance.now();
    if (marks.firstEvent === undefined && document.querySelector('.fc-timegrid-event')) marks.firstEvent = performance.now();
    if (drawnCount() >= ${target}) {
      window.__benchDrawnAt = performance.now();
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

/**
 * Fires the catch-up the way returning to the tab does (sync.ts listens to window focus), then
 * waits until the store's cursor reaches `cursor`: the cursor is written in the same transaction as
 * the last page's rows (applySyncPage), so by then every change is stored. Then counts, untimed,
 * the rows carrying the server's new description.
 */
export const timeCatchUp = (dbName: string, cursor: string, timeoutMs: number) =>
  call(
    `
    const db = await idbOpen(arg.dbName);
    try {
      const t0 = performance.now();
      window.dispatchEvent(new Event('focus'));
      let ms = null;
      while (performance.now() - t0 < arg.timeoutMs) {
        const row = await idbReq(db.transaction('meta', 'readonly').objectStore('meta').get('cursor'));
        if (row && String(row.value) === arg.cursor) {
          ms = performance.now() - t0;
          break;
        }
        await sleep(20);
      }
      const all = await idbReq(db.transaction('appointments', 'readonly').objectStore('appointments').getAll());
      const changed = all.filter((a) => a.description === 'Changed ' + a.id).length;
      return { ms, changed, stored: all.length };
    } finally {
      db.close();
    }
  `,
    { dbName, cursor, timeoutMs },
  );

/**
 * Queues description edits as Outbox.enqueue does for an update (pwa/src/offline/outbox.ts): the
 * optimistic row (pending, version kept) and the entry with its own Idempotency-Key and the If-Match
 * version, in one transaction.
 */
export const queueEdits = (dbName: string, edits: { id: number; description: string }[]) =>
  call(
    `
    const db = await idbOpen(arg.dbName);
    try {
      const tx = db.transaction(['appointments', 'outbox'], 'readwrite');
      const done = new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
      const appointments = tx.objectStore('appointments');
      const outbox = tx.objectStore('outbox');
      const now = new Date().toISOString();
      for (const edit of arg.edits) {
        const before = await idbReq(appointments.get(edit.id));
        if (!before) throw new Error('appointment ' + edit.id + ' is not in the local store');
        appointments.put({ ...before, description: edit.description, updated_at: now, id: before.id, version: before.version, pending: 1 });
        outbox.add({
          idempotencyKey: crypto.randomUUID(),
          attempts: 0,
          nextAttemptAt: 0,
          state: 'queued',
          kind: 'update',
          appointmentId: before.id,
          payload: { description: edit.description },
          ifMatch: before.version,
          before,
        });
      }
      await done;
      return arg.edits.length;
    } finally {
      db.close();
    }
  `,
    { dbName, edits },
  );

/**
 * Tells the app the connection is back (the outbox retries at once on 'online'), then waits until
 * the outbox is empty: every entry acknowledged (a refused one would stay, waiting for a choice).
 */
export const timeDrain = (dbName: string, timeoutMs: number) =>
  call(
    `
    const db = await idbOpen(arg.dbName);
    try {
      const t0 = performance.now();
      window.dispatchEvent(new Event('online'));
      while (performance.now() - t0 < arg.timeoutMs) {
        const left = await idbReq(db.transaction('outbox', 'readonly').objectStore('outbox').count());
        if (left === 0) return { ms: performance.now() - t0, left };
        await sleep(20);
      }
      const entries = await idbReq(db.transaction('outbox', 'readonly').objectStore('outbox').getAll());
      return { ms: null, left: entries.length, states: entries.map((e) => e.state + (e.refusal ? ' ' + e.refusal.status : '')) };
    } finally {
      db.close();
    }
  `,
    { dbName, timeoutMs },
  );
