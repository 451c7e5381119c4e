// The pieces of a scaled-out installation, started here without containers: the production build
// (server bundle and PWA), N app processes on one database, Debian's nginx balancing between them
// (configured like docs/deploy/nginx.conf), and per-process memory sampling. Used by
// scripts/scale-out.test.ts and scripts/bench-soak.ts (docs/decisions/33-scale-out.md).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildServer } from '../../api/src/build/server-bundle.ts';
import { freePort, spawnServer, type ServerProcess } from '../../api/src/testing/process.ts';
import { rssMb } from './proc-stats.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Debian's nginx binary, or null when it is not installed (`.ci/run` installs it). */
export function findNginx(): string | null {
  for (const p of [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx']) if (p && fs.existsSync(p)) return p;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

export interface ProductionBuild {
  bundle: string;
  pwaDist: string;
  cleanup(): void;
}

/**
 * The production build the processes run. The server bundle is made fresh (esbuild, seconds) where
 * `npm start`'s sits, two levels under the root, so it finds node_modules, as
 * scripts/production-build.test.ts does; a stale api/dist would test yesterday's code. The PWA
 * build is taken from PWA_DIST or pwa/dist when one exists (`npm run build` made it), else built
 * once into a temporary folder with the same `vite build`.
 */
export async function productionBuild(): Promise<ProductionBuild> {
  const bundleDir = fs.mkdtempSync(path.join(root, 'api', '.bundle-test-'));
  const bundle = await buildServer(path.join(bundleDir, 'server.mjs'));
  const candidates = [process.env.PWA_DIST, path.join(root, 'pwa', 'dist')].filter((p): p is string => !!p);
  let pwaDist = candidates.find((p) => fs.existsSync(path.join(p, 'index.html')));
  let tmpPwa: string | null = null;
  if (!pwaDist) {
    tmpPwa = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-scale-pwa-'));
    await promisify(execFile)(
      process.execPath,
      [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', tmpPwa, '--emptyOutDir'],
      { cwd: path.join(root, 'pwa'), env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 16 * 1024 * 1024 },
    );
    pwaDist = tmpPwa;
  }
  return {
    bundle,
    pwaDist,
    cleanup() {
      fs.rmSync(bundleDir, { recursive: true, force: true });
      if (tmpPwa) fs.rmSync(tmpPwa, { recursive: true, force: true });
    },
  };
}

/** The environment every app process shares: one JWT secret, so a session works on any of them. */
export function appEnv(databaseUrl: string, smtpUrl: string, pwaDist: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtpUrl,
    PWA_DIST: pwaDist,
    JWT_SECRET: crypto.randomBytes(24).toString('hex'),
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    // The mix comes from one address; limits per IP would turn it into 429s.
    RATE_LIMIT_PUBLIC: '100000000',
    RATE_LIMIT_LOGIN: '100000000',
    RATE_LIMIT_AVAILABILITY: '100000000',
    // /api/metrics on, so the soak can read each process's heap and external memory (heapSample).
    METRICS_TOKEN: METRICS_TOKEN,
  };
}

/** The soak's token for /api/metrics (a benchmark secret, never a deployment's). */
export const METRICS_TOKEN = 'soak-metrics-token-0123456789';

export interface HeapSample {
  rss_mb: number;
  heap_used_mb: number;
  heap_total_mb: number;
  external_mb: number;
  /** V8's old generation, used / size: where retained objects live. */
  old_space_used_mb: number;
  old_space_mb: number;
}

/** One process's memory as it reports it (prom-client's default metrics), or null if it did not answer. */
export async function heapSample(url: string): Promise<HeapSample | null> {
  try {
    const res = await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (!res.ok) return null;
    const text = await res.text();
    const mb = (re: RegExp) => {
      const m = re.exec(text);
      return m ? Math.round(Number(m[1]) / 2 ** 20) : -1;
    };
    return {
      rss_mb: mb(/^process_resident_memory_bytes (\S+)$/m),
      heap_used_mb: mb(/^nodejs_heap_size_used_bytes (\S+)$/m),
      heap_total_mb: mb(/^nodejs_heap_size_total_bytes (\S+)$/m),
      external_mb: mb(/^nodejs_external_memory_bytes (\S+)$/m),
      old_space_used_mb: mb(/^nodejs_heap_space_size_used_bytes\{space="old"\} (\S+)$/m),
      old_space_mb: mb(/^nodejs_heap_space_size_total_bytes\{space="old"\} (\S+)$/m),
    };
  } catch {
    return null;
  }
}

/** Starts `count` processes of the bundle one after the other (the first migrates the database). */
export async function startApps(count: number, env: Record<string, string>, bundle: string): Promise<ServerProcess[]> {
  const apps: ServerProcess[] = [];
  for (let i = 0; i < count; i++) apps.push(await spawnServer(env, 60_000, [], bundle));
  return apps;
}

export interface Nginx {
  url: string;
  dir: string;
  stop(): Promise<void>;
  errorLog(): string;
}

/**
 * docs/deploy/nginx.conf's upstream and server blocks, as deployed, with our processes as the
 * upstreams, a local port to listen on and an X-Upstream header naming the process that answered.
 * Throws when the deploy file no longer has the shape these edits expect, so the test cannot drift
 * from the file it claims to test.
 */
function deployedSiteConfig(upstreams: string[], port: number): string {
  const deployed = fs.readFileSync(path.join(root, 'docs/deploy/nginx.conf'), 'utf8');
  const edits: [RegExp, (match: string, ...groups: string[]) => string][] = [
    // Each of our processes in place of the deploy file's, with its servers' own parameters.
    [
      /(?:^( *)server app\d+:\d+([^;\n]*);\n)+/m,
      (_all, indent, params) => upstreams.map((u) => `${indent}server ${new URL(u).host}${params};\n`).join(''),
    ],
    [/^ *listen 80;$/m, () => `  listen 127.0.0.1:${port};`],
    [
      /^( *)proxy_next_upstream_tries (\d+);$/m,
      (_all, indent, tries) => `${indent}proxy_next_upstream_tries ${tries};\n${indent}add_header X-Upstream $upstream_addr always;`,
    ],
  ];
  let conf = deployed;
  for (const [pattern, replacement] of edits) {
    if (!pattern.test(conf)) throw new Error(`docs/deploy/nginx.conf no longer matches ${pattern}`);
    conf = conf.replace(pattern, replacement);
  }
  return conf;
}

/**
 * Runs nginx as our own foreground process (`daemon off`, its own prefix and config in a temporary
 * folder), never the system service, with docs/deploy/nginx.conf's site (deployedSiteConfig).
 */
export async function startNginx(nginxPath: string, upstreams: string[]): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-nginx-'));
  // Workers may run as another user when we are root: they need to reach their temp folders.
  fs.chmodSync(dir, 0o755);
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, t), { mode: 0o777 });
  const port = await freePort();
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${deployedSiteConfig(upstreams, port)}
}
`,
  );
  const child: ChildProcess = spawn(nginxPath, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${out}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not answer: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dir,
    errorLog: () => {
      try {
        return fs.readFileSync(path.join(dir, 'error.log'), 'utf8');
      } catch {
        return '';
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGQUIT');
      }),
  };
}

/** Samples each process's RSS every `everyMs`; `stop()` returns the series (seconds since start, MB). */
export function sampleMemory(pids: number[], everyMs: number): { stop(): { t: number; mb: (number | null)[] }[] } {
  const t0 = Date.now();
  const samples: { t: number; mb: (number | null)[] }[] = [];
  const take = () => samples.push({ t: Math.round((Date.now() - t0) / 1000), mb: pids.map(rssMb) });
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/**
 * Memory of one process over a run: the peak, the level right after warm-up (the first sample after
 * `warmupS`), and the level at the end: flat means end - warm-up stays small.
 */
export function memorySummary(samples: { t: number; mb: (number | null)[] }[], index: number, warmupS: number) {
  const series = samples.map((s) => ({ t: s.t, mb: s.mb[index] })).filter((s): s is { t: number; mb: number } => s.mb !== null);
  const warm = series.find((s) => s.t >= warmupS) ?? series[0];
  const last = series[series.length - 1];
  return {
    start_mb: series[0]?.mb ?? null,
    after_warmup_mb: warm?.mb ?? null,
    end_mb: last?.mb ?? null,
    peak_mb: series.length ? Math.max(...series.map((s) => s.mb)) : null,
    growth_after_warmup_mb: warm && last ? last.mb - warm.mb : null,
  };
}
