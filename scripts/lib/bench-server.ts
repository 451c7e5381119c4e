// The server every benchmark measures: the built bundle as `npm start` runs it, one process, quiet logs, no
// scheduler, and rate limits out of the way (a bench's load comes from one address; docs/decisions/29-input-rate-limits-request-ids.md).
import { spawnServer, type ServerProcess } from '../../api/src/testing/process.ts';

export function spawnBenchServer(databaseUrl: string, bundle: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return spawnServer(
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'error',
      DISABLE_SCHEDULER: 'true',
      RATE_LIMIT_PUBLIC: '100000000',
      RATE_LIMIT_AVAILABILITY: '100000000',
      ...env,
    },
    60_000,
    (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    bundle,
  );
}
