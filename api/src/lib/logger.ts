// One small structured logger: JSON lines to stdout/stderr, never passwords or tokens (callers pass only safe fields).
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /**
   * The same logger with `fields` on every line it writes. Each request's handlers get one carrying
   * its request id, inside the request's `deps` (app.ts), so services log the id without being
   * handed it separately (docs/decisions/29-input-rate-limits-request-ids.md).
   */
  child(fields: Record<string, unknown>): Logger;
}

/** `sink` receives each JSON line (default: stderr for warnings and errors, stdout otherwise). */
export function createLogger(level: LogLevel = 'info', sink?: (line: string, level: LogLevel) => void): Logger {
  const make = (context: Record<string, unknown> | undefined): Logger => {
    const write = (l: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[l] < ORDER[level]) return;
      const line = JSON.stringify({ t: new Date().toISOString(), level: l, msg, ...context, ...fields });
      if (sink) sink(line, l);
      else (l === 'error' || l === 'warn' ? process.stderr : process.stdout).write(line + '\n');
    };
    return {
      debug: (m, f) => write('debug', m, f),
      info: (m, f) => write('info', m, f),
      warn: (m, f) => write('warn', m, f),
      error: (m, f) => write('error', m, f),
      child: (fields) => make({ ...context, ...fields }),
    };
  };
  return make(undefined);
}
