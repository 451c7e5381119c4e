// One small structured logger: JSON lines to stdout/stderr, never passwords or tokens (callers pass only safe fields).
import { AsyncLocalStorage } from 'node:async_hooks';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Fields every line carries while a request runs (its request id), wherever the line is written. */
const logContext = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `fn` with `fields` added to every log line written inside it, services included. */
export function withLogContext<T>(fields: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  return logContext.run(fields, fn);
}

/** `sink` receives each JSON line (default: stderr for warnings and errors, stdout otherwise). */
export function createLogger(level: LogLevel = 'info', sink?: (line: string, level: LogLevel) => void): Logger {
  const write = (l: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    const line = JSON.stringify({ t: new Date().toISOString(), level: l, msg, ...logContext.getStore(), ...fields });
    if (sink) sink(line, l);
    else (l === 'error' || l === 'warn' ? process.stderr : process.stdout).write(line + '\n');
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}
