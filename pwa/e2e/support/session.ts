// Signing in as one of the demo accounts (see scripts/lib/demo-seed.ts) without going through the form.
import type { Page } from '@playwright/test';

export const DEMO = {
  password: 'demo1234',
  admin: 'admin@demo.test',
  owner: 'owner@demo.test',
  manager: 'manager@demo.test',
  employee: 'emma@demo.test',
  customer: 'customer@demo.test',
} as const;

export async function apiToken(page: Page, email: string, password: string = DEMO.password): Promise<string> {
  const res = await page.request.post('/api/login', { data: { email, password } });
  if (!res.ok()) throw new Error(`login failed for ${email}: ${res.status()} ${await res.text()}`);
  return (await res.json()).token as string;
}

/** Stores a session token the way the app does (localStorage 'token') and opens `path`. */
export async function openWithToken(page: Page, token: string, path: string): Promise<void> {
  await page.goto('/faq');
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(path);
}

/** Signs in through the API as `email` and opens `path` with that session. */
export async function signInAs(page: Page, email: string, path = '/calendar', password: string = DEMO.password): Promise<string> {
  const token = await apiToken(page, email, password);
  await openWithToken(page, token, path);
  return token;
}
