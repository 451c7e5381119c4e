// What the server says at start about its own configuration.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDeps } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './lib/logger.ts';

describe('start-up warnings', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-bootstrap-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const warningsAt = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const config = loadConfig({ DATABASE_URL: `file:${path.join(dir, 'app.db')}`, DISABLE_SCHEDULER: 'true', ...env });
    const { deps, dispatcher } = await buildDeps(config, { log: createLogger('warn', (line) => lines.push(line)) });
    await dispatcher.stop();
    await deps.database.close();
    return lines.filter((l) => l.includes('JWT_SECRET'));
  };

  it('an https server without JWT_SECRET is told its signing key lives in the database', async () => {
    expect(await warningsAt({ APP_URL: 'https://book.example.test' })).toHaveLength(1);
    expect(await warningsAt({ APP_URL: 'https://book.example.test', JWT_SECRET: 'x'.repeat(40) })).toEqual([]);
    expect(await warningsAt({ APP_URL: 'http://localhost:3000' })).toEqual([]);
  });
});
