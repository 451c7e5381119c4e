// The server's configuration: environment variables parsed once, all optional, every problem listed.
import { z } from 'zod';

const bool = z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', '']).transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const optionalString = z.string().trim().min(1).optional().catch(undefined);
const optionalUrl = (what: string) =>
  z
    .string()
    .trim()
    .url(`${what} must be a URL`)
    .optional()
    .or(z.literal('').transform(() => undefined));

const schema = z
  .object({
    PORT: port.default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.string().min(1).optional(),
    TRUST_PROXY: bool.default(false),
    PUBLIC_API_URL: z.string().min(1).default('/api'),
    PUBLIC_DIRECT_API_URL: optionalString,
    CORS_ORIGINS: z.string().optional(),
    APP_URL: optionalUrl('APP_URL'),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
    ADMIN_EMAIL: z.string().email('ADMIN_EMAIL must be an email address').optional(),
    ADMIN_PASSWORD: z.string().min(6, 'ADMIN_PASSWORD must be at least 6 characters').optional(),
    SMTP_URL: optionalUrl('SMTP_URL'),
    MAIL_FROM: z.string().min(3).default('Bookwell <no-reply@localhost>'),
    SMS_PROVIDER: z.enum(['twilio', '']).optional(),
    TWILIO_ACCOUNT_SID: optionalString,
    TWILIO_AUTH_TOKEN: optionalString,
    TWILIO_FROM: optionalString,
    TWILIO_API_URL: z.string().url().default('https://api.twilio.com'),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_PRICE_STANDARD: optionalString,
    STRIPE_PRICE_ENTERPRISE: optionalString,
    STRIPE_API_BASE: optionalUrl('STRIPE_API_BASE'),
    RATE_LIMIT_LOGIN: positiveInt.default(10),
    RATE_LIMIT_PUBLIC: positiveInt.default(30),
    /** Availability reads (available-slots, -dates) per IP per minute, counted in each process (docs/decisions/29). */
    RATE_LIMIT_AVAILABILITY: positiveInt.default(600),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    PWA_DIST: z.string().optional(),
    /** Background jobs (outbox dispatcher, reminders): off in some tests. */
    DISABLE_SCHEDULER: bool.default(false),
    /** Keep availability answers until the next write (SQLite only); off computes every request. */
    AVAILABILITY_CACHE: bool.default(true),
    /** Keep each company's set-up (hours, services, overrides) per settings generation; off reads it on every availability request (docs/decisions/28). */
    SETTINGS_MEMO: bool.default(true),
    // db/src/group-commit.ts: 'on' groups while requests queue, 'always' every turn (the test suites), 'off' never.
    SQLITE_GROUP_COMMIT: z
      .enum(['on', 'off', 'always'])
      .default('on')
      .transform((v) => (v === 'on' ? ('when-busy' as const) : v)),
    /** Bearer token of GET /api/metrics; unset, the endpoint answers 404 (docs/decisions/32-privacy-and-operations.md). */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    /** On SIGTERM, /api/ready answers 503 this long before the server stops accepting, so load balancers move away first. */
    SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
    /** The whole shutdown's bound (under `docker stop`'s 10 s): requests still running then are cut and the process exits 1. */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(8000),
  })
  .superRefine((c, ctx) => {
    if (c.ADMIN_EMAIL && !c.ADMIN_PASSWORD)
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'ADMIN_PASSWORD is required with ADMIN_EMAIL' });
    if (c.ADMIN_PASSWORD && !c.ADMIN_EMAIL)
      ctx.addIssue({ code: 'custom', path: ['ADMIN_EMAIL'], message: 'ADMIN_EMAIL is required with ADMIN_PASSWORD' });
    if (c.SMS_PROVIDER === 'twilio' && !(c.TWILIO_ACCOUNT_SID && c.TWILIO_AUTH_TOKEN && c.TWILIO_FROM)) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_PROVIDER'],
        message: 'SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM',
      });
    }
    // Each entry is compared with the browser's Origin header as it is: scheme, host and port only.
    for (const origin of (c.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (!isOrigin(origin))
        ctx.addIssue({
          code: 'custom',
          path: ['CORS_ORIGINS'],
          message: `CORS_ORIGINS entries must be origins like https://shop.example.com (scheme, host, optional port; no path, no *): "${origin}"`,
        });
    }
    if (c.DATABASE_URL && !/^(postgres(ql)?:\/\/|file:|sqlite:)/.test(c.DATABASE_URL) && c.DATABASE_URL !== ':memory:') {
      ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'DATABASE_URL must start with postgres://, postgresql:// or file:' });
    }
  });

/** Whether `s` is an origin exactly as a browser sends it: http(s)://host[:port], nothing after. */
function isOrigin(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === s;
  } catch {
    return false;
  }
}

export type RawConfig = z.infer<typeof schema>;
export interface Config extends RawConfig {
  DATABASE_URL: string;
  APP_URL: string;
  corsOrigins: string[];
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment. Throws ConfigError listing every bad variable (never their values). */
/** Texts go out only with SMS_PROVIDER=twilio (its credentials are then required above). */
export const smsConfigured = (c: Pick<Config, 'SMS_PROVIDER'>): boolean => c.SMS_PROVIDER === 'twilio';

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`));
  }
  const c = parsed.data;
  return {
    ...c,
    DATABASE_URL: c.DATABASE_URL ?? `file:${c.DATA_DIR.replace(/\/$/, '')}/app.db`,
    APP_URL: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    corsOrigins: (c.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

const SECRET_KEYS = [
  'JWT_SECRET',
  'ADMIN_PASSWORD',
  'SMTP_URL',
  'TWILIO_AUTH_TOKEN',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'DATABASE_URL',
  'METRICS_TOKEN',
];

/** The configuration as it may be logged: secrets masked, credentials stripped from URLs. */
export function describeConfig(c: Config): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c)) {
    if (v === undefined) continue;
    out[k] = SECRET_KEYS.includes(k) ? maskSecret(k, String(v)) : v;
  }
  return out;
}

function maskSecret(key: string, value: string): string {
  if (key === 'DATABASE_URL' || key === 'SMTP_URL') {
    try {
      const u = new URL(value);
      if (u.password) u.password = '***';
      return u.toString();
    } catch {
      return value.startsWith('file:') ? value : '***';
    }
  }
  return '***';
}

/** For command-line entry points: the configuration, or every problem printed and exit code 1. */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
