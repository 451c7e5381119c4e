// Starts the whole product on one port: database + migrations, the API, background jobs and the built PWA.
import { SettingsMemo } from './lib/settings-memo.ts';
import { ChangeStampedCache } from './lib/change-stamped-cache.ts';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import cron, { type ScheduledTask } from 'node-cron';
import { connect, migrateToLatest, type DatabaseHandle } from '@bookwell/db';
import { smsConfigured, type Config } from './config.ts';
import { createApp } from './app.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { loadJwtKey } from './lib/auth.ts';
import { manageLinkKey } from './lib/manage-token.ts';
import { MemoryRateLimiter, pruneHits } from './lib/rate-limit.ts';
import { pruneIdempotencyKeys } from './lib/idempotency.ts';
import type { AppDeps } from './lib/context.ts';
import { createDispatcher, type Dispatcher } from './features/notifications/dispatcher.service.ts';
import { createTwilioSms } from './features/notifications/twilio-sms.ts';
import { createGlobalAdmin } from './features/users/user.service.ts';
import { outboxCounts } from './features/health/health.repository.ts';
import { createMetrics } from './lib/metrics.ts';
import { createLifecycle } from './lib/lifecycle.ts';

/** How long the server keeps an idle kept-alive connection open (docs/deploy/nginx.conf keeps its own 60 s). */
const KEEP_ALIVE_MS = 65_000;

const DEFAULT_PWA_DIST = fileURLToPath(new URL('../../pwa/dist', import.meta.url));

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  dispatcher: Dispatcher;
  /** Stops gracefully; `delayMs`: how long readiness answers 503 before the server stops accepting. */
  close(opts?: { delayMs?: number }): Promise<void>;
}

/** Creates the global_admin named by ADMIN_EMAIL/ADMIN_PASSWORD when no user has that email. */
export async function ensureGlobalAdmin(database: DatabaseHandle, email: string, password: string, log: Logger): Promise<void> {
  if (await createGlobalAdmin(database.db, email, password, new Date())) log.info('created global admin', { email: email.toLowerCase() });
}

export async function buildDeps(config: Config, opts: { now?: () => Date; log?: Logger; database?: DatabaseHandle } = {}) {
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  const database = opts.database ?? connect(config.DATABASE_URL, { backgroundCheckpoints: true, groupCommit: config.SQLITE_GROUP_COMMIT });
  await migrateToLatest(database);
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) await ensureGlobalAdmin(database, config.ADMIN_EMAIL, config.ADMIN_PASSWORD, log);
  const jwtKey = await loadJwtKey(database.db, config.JWT_SECRET);
  // Served over https is a production server: its signing key should not live in the database it signs for
  // (docs/decisions/23-self-service.md).
  if (!config.JWT_SECRET && config.APP_URL.startsWith('https:')) {
    log.warn(
      'JWT_SECRET is unset: the signing key is kept in the database, so a copy of it can sign sessions and build self-service links',
    );
  }
  const now = opts.now ?? (() => new Date());
  const dispatcher = createDispatcher({
    db: database.db,
    config,
    log,
    now,
    sms: smsConfigured(config) ? createTwilioSms(config) : null,
    manageKey: manageLinkKey(jwtKey),
    schedule: !config.DISABLE_SCHEDULER,
  });
  const deps: AppDeps = {
    db: database.db,
    database,
    config,
    log,
    now,
    jwtKey,
    nudgeOutbox: config.DISABLE_SCHEDULER ? () => {} : () => dispatcher.nudge(),
    // Keyed by each company's availability generation, which lives in the database: right on every dialect and across processes.
    availabilityCache: config.AVAILABILITY_CACHE ? new ChangeStampedCache() : null,
    settingsMemo: config.SETTINGS_MEMO ? new SettingsMemo() : null,
    metrics: createMetrics({ outboxCounts: () => outboxCounts(database.db) }),
    lifecycle: createLifecycle(),
    availabilityLimiter: new MemoryRateLimiter(config.RATE_LIMIT_AVAILABILITY, 60_000),
  };
  // A failed SQLite group commit (db/src/group-commit.ts): answers computed from its writes were never true.
  database.onLostCommit?.(() => {
    deps.availabilityCache?.clear();
    deps.settingsMemo?.clear();
  });
  return { deps, dispatcher };
}

/** The public pages' paths (pwa/src/app/public-routes.tsx): landing, pricing, FAQ, sign-in and sign-up, booking, /manage. */
const PUBLIC_SHELL_PATH =
  /^\/(?:|pricing|faq|login|register|forgot-password|reset-password|book-appointment(?:\/[^/]+)?|public\/booking\/[^/]+|appointment-success|manage(?:\/[^/]+)?)\/?$/;

function staticApp(app: ReturnType<typeof createApp>, config: Config, distDir: string) {
  app.get('/config.json', (c) =>
    c.json({ API_URL: config.PUBLIC_API_URL, DIRECT_API_URL: config.PUBLIC_DIRECT_API_URL ?? null }, 200, { 'Cache-Control': 'no-cache' }),
  );
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    app.get('*', (c) => c.text('The web app is not built. Run `npm run build` (npm start does it for you).', 503));
    return;
  }
  const indexHtml = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  // The public pages have their own shell, rendered with Preact (docs/decisions/30-csp-and-small-public-pages.md);
  // its router (pwa/src/app/public-routes.tsx) knows exactly these paths and loads any other one in full.
  const publicHtml = fs.existsSync(path.join(distDir, 'public.html')) ? fs.readFileSync(path.join(distDir, 'public.html'), 'utf8') : null;
  if (publicHtml) {
    app.get('*', async (c, next) => {
      if (!PUBLIC_SHELL_PATH.test(c.req.path)) return next();
      return c.html(publicHtml, 200, { 'Cache-Control': 'no-cache' });
    });
  }
  app.use(
    '/assets/*',
    serveStatic({
      root: distDir,
      // The .br/.gz copies written at build time (docs/decisions/25-compression.md).
      precompressed: true,
      onFound: (_p, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  // A built file that is not there (an old page asking for a script a newer build replaced) is a 404,
  // not the app shell: HTML where a script was expected fails in the page without saying why.
  app.get('/assets/*', (c) => c.text('Not found', 404, { 'Cache-Control': 'no-cache' }));
  app.use(
    '*',
    serveStatic({
      root: distDir,
      precompressed: true,
      onFound: (_p, c) => {
        c.header('Cache-Control', 'no-cache');
      },
    }),
  );
  // Client-side routes: every other GET gets the app shell.
  app.get('*', (c) => c.html(indexHtml, 200, { 'Cache-Control': 'no-cache' }));
}

export async function startServer(
  config: Config,
  opts: { now?: () => Date; log?: Logger; port?: number; database?: DatabaseHandle } = {},
): Promise<RunningServer> {
  const { deps, dispatcher } = await buildDeps(config, opts);
  const app = createApp(deps);
  staticApp(app, config, config.PWA_DIST ?? DEFAULT_PWA_DIST);

  const tasks: ScheduledTask[] = [];
  if (!config.DISABLE_SCHEDULER) {
    // The minute tick is the safety net; writers nudge the dispatcher for messages due now.
    tasks.push(
      cron.schedule('* * * * *', () => {
        void dispatcher.runOnce();
      }),
    );
    tasks.push(
      cron.schedule('17 * * * *', () => {
        void pruneHits(deps.db, deps.now()).catch(() => {});
      }),
    );
    // Idempotency keys live 30 days (docs/decisions/05-scheduling-rules.md); older ones go once a day.
    tasks.push(
      cron.schedule('43 3 * * *', () => {
        void pruneIdempotencyKeys(deps.db, deps.now()).catch(() => {});
      }),
    );
    // A pass at start: messages a stopped or crashed process left behind go now, not at the next tick
    // (docs/decisions/22-messaging.md).
    void dispatcher.runOnce();
  }

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? config.PORT, hostname: config.HOST }, () => resolve(s));
  });
  // An idle kept-alive connection stays open longer than a proxy keeps its own (nginx's upstream
  // keepalive_timeout, 60 s in docs/deploy/nginx.conf): with Node's 5 s the app closed connections
  // nginx was about to reuse, and a PATCH sent on one got a 502 that nginx may not retry.
  (server as Server).keepAliveTimeout = KEEP_ALIVE_MS;
  (server as Server).headersTimeout = KEEP_ALIVE_MS + 1000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;

  deps.lifecycle.state = 'ready';

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    deps,
    dispatcher,
    close(closeOpts = {}) {
      // Graceful shutdown (docs/decisions/32-privacy-and-operations.md): readiness answers 503 at once
      // and, for `delayMs`, the server keeps serving so load balancers see it and move away; then it
      // stops accepting, closes idle kept-alive connections, lets in-flight requests finish (their
      // answers say Connection: close), and only then stops the jobs and closes the database.
      closing ??= (async () => {
        deps.lifecycle.state = 'stopping';
        for (const t of tasks) t.stop();
        if (closeOpts.delayMs) await new Promise((r) => setTimeout(r, closeOpts.delayMs));
        await new Promise<void>((resolve) => {
          // A connection that goes idle while we wait (a client that kept it after its last answer)
          // would otherwise hold the close for KEEP_ALIVE_MS: idle ones are closed as they appear.
          const closeIdle = () => {
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          };
          const sweep = setInterval(closeIdle, 200);
          server.close(() => {
            clearInterval(sweep);
            resolve();
          });
          closeIdle();
        });
        await dispatcher.stop();
        await deps.database.close();
      })();
      return closing;
    },
  };
}
