// Test databases: every repository and API suite runs once per dialect (SQLite always, PostgreSQL
// when TEST_DATABASE_URL is set), each suite on its own fresh database.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Dialect } from '../connect.ts';

export interface TestDatabase {
  dialect: Dialect;
  url: string;
  drop(): Promise<void>;
}

export function testDialects(): Dialect[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const name = `bw_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-test-'));
    return {
      dialect,
      url: `file:${path.join(dir, `${name}.db`)}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    dialect,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
