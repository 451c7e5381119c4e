// What every request handler can reach: the dependencies of the app and who is calling.
import type { Kysely } from 'kysely';
import type { Database, DatabaseHandle, Role } from '@bookwell/db';
import type { Config } from '../config.ts';
import type { Logger } from './logger.ts';
import type { ChangeStampedCache } from './change-stamped-cache.ts';
import type { SettingsMemo } from './settings-memo.ts';
import type { Metrics } from './metrics.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { MemoryRateLimiter } from './rate-limit.ts';

export interface AppDeps {
  db: Kysely<Database>;
  database: DatabaseHandle;
  config: Config;
  log: Logger;
  /** The clock; tests inject a fixed one. */
  now: () => Date;
  /** HS256 key for session tokens (from JWT_SECRET or the database). */
  jwtKey: Uint8Array;
  /** Tells the outbox dispatcher that a message is due now (no-op when no dispatcher runs). */
  nudgeOutbox: () => void;
  /** Answers of the availability endpoints while provably current (per-company generation, docs/decisions/28); null computes every time. */
  availabilityCache: ChangeStampedCache | null;
  /** The company set-up availability is computed from, per settings generation (lib/settings-memo.ts); null reads it every time. */
  settingsMemo: SettingsMemo | null;
  /** Prometheus metrics of this process (GET /api/metrics). */
  metrics: Metrics;
  /** Starting, ready or stopping: what GET /api/ready answers from. */
  lifecycle: Lifecycle;
  /** RATE_LIMIT_AVAILABILITY's counters, per IP, in this process (lib/rate-limit.ts). */
  availabilityLimiter: MemoryRateLimiter;
}

/** The authenticated caller, as read from the database on this request (not from the token alone). */
export interface Actor {
  id: number;
  role: Role;
  company_id: number | null;
  name: string;
  email: string;
}

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    actor: Actor | null;
    clientIp: string;
    /** This request's id (X-Request-Id, docs/decisions/29-input-rate-limits-request-ids.md); the audit log records it. */
    requestId: string;
    /** The headers every answer carries (security-headers.ts), for answers made complete (complete-answer.ts). */
    securityHeaders: Readonly<Record<string, string>>;
  };
};
