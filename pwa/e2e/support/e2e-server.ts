// The server the browser suite runs against: the real product on a fresh SQLite database with the
// demo company, sending email to a real SMTP server whose inbox tests read over HTTP.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { connect, migrateToLatest } from '@bookwell/db';
import { loadConfig } from '../../../api/src/config.ts';
import { startServer } from '../../../api/src/bootstrap.ts';
import { startTestSmtp } from '../../../api/src/testing/smtp.ts';
import { startFakeStripe } from '../../../api/src/features/billing/fake-stripe.ts';
import { seedDemo } from '../../../scripts/lib/demo-seed.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const mailPort = Number(process.env.E2E_MAIL_PORT ?? 3101);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-e2e-'));
const databaseUrl = process.env.E2E_DATABASE_URL ?? `file:${path.join(dir, 'app.db')}`;

const smtp = await startTestSmtp();
// A local fake Stripe beside the SMTP server: its hosted checkout posts the signed webhook to this server
// (billing.spec.ts). Only subscribing and Manage billing reach it; other specs never call Stripe.
const STRIPE_WEBHOOK_SECRET = 'whsec_e2e_bookwell';
const stripe = await startFakeStripe({
  hosted: { webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`, webhookSecret: STRIPE_WEBHOOK_SECRET },
});
const database = connect(databaseUrl);
await migrateToLatest(database);
await seedDemo(database.db);
await database.close();

const config = loadConfig({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  SMTP_URL: smtp.url,
  APP_URL: `http://localhost:${port}`,
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  RATE_LIMIT_PUBLIC: '100000',
  RATE_LIMIT_AVAILABILITY: '100000',
  RATE_LIMIT_LOGIN: '1000',
  ADMIN_EMAIL: 'admin@demo.test',
  ADMIN_PASSWORD: 'demo1234',
  STRIPE_SECRET_KEY: 'sk_test_e2e_fake',
  STRIPE_WEBHOOK_SECRET,
  STRIPE_PRICE_STANDARD: 'price_e2e_standard',
  STRIPE_PRICE_ENTERPRISE: 'price_e2e_enterprise',
  STRIPE_API_BASE: stripe.url,
});
const running = await startServer(config);

// GET /mail?to=<address> -> the messages received for that address (raw MIME), newest last.
const mail = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${mailPort}`);
  const to = url.searchParams.get('to')?.toLowerCase();
  const list = smtp.messages.filter((m) => !to || m.to.map((a) => a.toLowerCase()).includes(to));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(list));
});
await new Promise<void>((resolve) => mail.listen(mailPort, '127.0.0.1', () => resolve()));
console.log(`e2e server ready at ${running.url} (mail inbox at http://127.0.0.1:${mailPort}/mail)`);

const stop = async () => {
  await running.close();
  await smtp.close();
  await stripe.close();
  mail.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
