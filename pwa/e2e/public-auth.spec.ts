// The public sign-up and password pages (issue 6; docs/product/02-screens.md, 04-states.md, 05-validation.md and 08-errors.md;
// docs/decisions/02-api-conventions.md) against the real server: registering a business leads to /calendar and creates the
// company in the browser's time zone, the health check message, forgot/reset password end to
// end from the emailed link, and screenshots of every public page at the three sizes.
//
// Each test makes its own account (unique emails), so nothing depends on run order or other specs.
import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { shootAllSizes } from './support/screens.ts';
import { linkIn, waitForMail } from './support/mail.ts';

const UNREACHABLE = 'Unable to connect to the server. Please check your connection and try again.';
const INVALID_TOKEN = 'Invalid or expired reset token';
const SIGN_IN_FAILED = 'Failed to sign in. Please check your credentials.';

let serial = 0;
function uniqueEmail(tag: string): string {
  serial += 1;
  return `${tag}-${Date.now().toString(36)}-${serial}-${Math.random().toString(36).slice(2, 7)}@example.org`;
}

async function api<T>(request: APIRequestContext, token: string | null, method: string, path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(data === undefined ? {} : { data }),
  });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : null) as T };
}

/** Holds requests matching `match` until the returned function is called. */
async function hold(page: Page, url: string, match: (method: string) => boolean = () => true) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(url, async (route) => {
    if (match(route.request().method())) await released;
    await route.continue();
  });
  // Later requests pass straight through (the promise is settled).
  return () => release();
}

test.describe('a new business registers', () => {
  // A zone other than the server's default (UTC) and the demo's, so the test sees the browser's zone arrive.
  test.use({ timezoneId: 'Europe/Berlin' });

  test('register leads to /calendar and creates the company in the browser time zone', async ({ page }) => {
    const who = { name: 'Priya Owner', email: uniqueEmail('register-owner'), company: `Priya Salon ${Date.now().toString(36)}` };
    const password = 'owner-pass-1';

    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Already have an account? Sign in' })).toHaveAttribute('href', '/login');
    const f = {
      name: page.getByLabel('Full name'),
      email: page.getByLabel('Email address'),
      password: page.getByLabel('Password', { exact: true }),
      confirm: page.getByLabel('Confirm password'),
      company: page.getByLabel('Company name'),
      submit: page.getByRole('button', { name: 'Create account' }),
    };
    await expect(f.email).toHaveAttribute('type', 'email');

    // All five fields are required.
    await f.submit.click();
    await expect(page.getByRole('alert')).toHaveText('All fields are required');
    await f.name.fill(who.name);
    await f.email.fill(who.email);
    await f.password.fill(password);
    await f.confirm.fill(`${password}-typo`);
    await f.submit.click();
    await expect(page.getByRole('alert')).toHaveText('All fields are required');
    await f.company.fill(who.company);

    // Passwords must match; the message clears when either password is edited.
    await f.submit.click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
    await f.confirm.fill(password);
    await expect(page.getByText('Passwords do not match')).toHaveCount(0);
    await f.password.fill('short');
    await f.confirm.fill('short');
    await f.submit.click();
    await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters long');
    await f.password.fill(password);
    await f.confirm.fill(password);

    // Creating account... with the fields disabled while the request is out.
    const release = await hold(page, '**/api/register', (m) => m === 'POST');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/register'));
    await f.submit.click();
    await expect(page.getByRole('button', { name: 'Creating account...' })).toBeDisabled();
    await expect(f.name).toBeDisabled();
    await expect(f.company).toBeDisabled();
    release();
    expect((await sent).postDataJSON()).toEqual({
      name: who.name,
      email: who.email,
      password,
      role: 'admin',
      company_name: who.company,
      timezone: 'Europe/Berlin',
    });

    await expect(page).toHaveURL(/\/calendar(\?.*)?$/);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();

    // On the server: an admin of a new company in the browser's zone, on its free trial.
    const me = await api<{ id: number; role: string; company_id: number; name: string; email: string }>(page.request, token, 'GET', '/me');
    expect(me.body).toMatchObject({ role: 'admin', name: who.name, email: who.email });
    const company = await api<{ name: string; timezone: string; subscription_expires_at: string | null }>(
      page.request,
      token,
      'GET',
      `/companies/${me.body.company_id}`,
    );
    expect(company.status).toBe(200);
    expect(company.body.name).toBe(who.company);
    expect(company.body.timezone).toBe('Europe/Berlin');
    const trialDays = (Date.parse(company.body.subscription_expires_at!) - Date.now()) / 86_400_000;
    expect(trialDays).toBeGreaterThan(13.9);
    expect(trialDays).toBeLessThanOrEqual(14);

    // Signed in, the public entry points send them to the calendar.
    for (const path of ['/', '/login', '/register']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/calendar(\?.*)?$/);
    }

    // Signed out, the same email cannot register again.
    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto('/register');
    await f.name.fill('Someone Else');
    await f.email.fill(who.email);
    await f.password.fill('another-pass');
    await f.confirm.fill('another-pass');
    await f.company.fill('Another Company');
    await f.submit.click();
    await expect(page.getByRole('alert')).toHaveText('Email already exists');
    await expect(page).toHaveURL(/\/register$/);
  });
});

test('login and register check the server on load and say when it cannot be reached', async ({ page }) => {
  await page.route('**/api/health', (route) => route.abort('connectionrefused'));
  for (const path of ['/login', '/register']) {
    await page.goto(path);
    await expect(page.getByRole('alert').filter({ hasText: UNREACHABLE })).toBeVisible();
  }
  await page.unroute('**/api/health');
  const checked = page.waitForResponse((r) => r.url().endsWith('/api/health'));
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  expect((await checked).status()).toBe(200);
  await expect(page.getByText(UNREACHABLE)).toHaveCount(0);
});

test('the unreachable notice goes once the server answers: the connection returns, or a sign-in is answered; one notice at a time', async ({
  page,
  context,
}) => {
  // Signed out while offline, a front desk lands on /login: the check fails.
  await page.route('**/api/health', (route) => route.abort('internetdisconnected'));
  await page.goto('/login');
  const unreachable = page.getByRole('alert').filter({ hasText: UNREACHABLE });
  await expect(unreachable).toBeVisible();
  // The connection returns: checked again at once, not only on the next load.
  await context.setOffline(true);
  await page.unroute('**/api/health');
  const checked = page.waitForResponse((r) => r.url().endsWith('/api/health') && r.status() === 200);
  await context.setOffline(false);
  await checked;
  await expect(unreachable).toHaveCount(0);

  // Checked while the server could not be reached. A sign-in that gets no answer either says so
  // once, in its own words; one the server answers (a wrong password) says that, and no longer
  // that the server cannot be reached.
  await page.route('**/api/health', (route) => route.abort('connectionrefused'));
  await page.goto('/login');
  await expect(unreachable).toBeVisible();
  await page.getByLabel('Email address').fill(uniqueEmail('nobody'));
  await page.getByLabel('Password').fill('wrong-pass-1');
  await page.route('**/api/login', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(['Cannot connect to the server. Please check your network connection.']);
  await page.unroute('**/api/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText([SIGN_IN_FAILED]);
  await expect(unreachable).toHaveCount(0);
  await page.unroute('**/api/health');
});

test("a failed sign-up says the server's refusal, or SPEC's words when the server fails", async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('Full name').fill('Sam Signup');
  await page.getByLabel('Email address').fill(uniqueEmail('register-fails'));
  await page.getByLabel('Password', { exact: true }).fill('signup-pass-1');
  await page.getByLabel('Confirm password').fill('signup-pass-1');
  await page.getByLabel('Company name').fill(`Sam Co ${Date.now().toString(36)}`);
  const answers: [string, (route: Route) => Promise<void>, string][] = [
    ['server error', (route) => route.fulfill({ status: 500, json: {} }), 'Failed to register. Please try again later.'],
    ['bad gateway', (route) => route.fulfill({ status: 502, body: '' }), 'Failed to register. Please try again later.'],
    [
      'email taken',
      (route) => route.fulfill({ status: 400, json: { error: 'Email already exists', code: 'validation' } }),
      'Email already exists',
    ],
  ];
  for (const [what, answer, text] of answers) {
    await page.route('**/api/register', answer);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert'), what).toHaveText(text);
    await page.unroute('**/api/register');
  }
  await expect(page).toHaveURL(/\/register$/);
});

test("a wrong password on /login says the page's own words; no answer, a server error and a rate limit keep theirs", async ({ page }) => {
  const email = uniqueEmail('login-owner');
  const registered = await api<{ token: string }>(page.request, null, 'POST', '/register', {
    name: 'Lena Login',
    email,
    password: 'right-pass-1',
    role: 'admin',
    company_name: `Login Co ${Date.now().toString(36)}`,
  });
  expect(registered.status).toBe(200);

  await page.goto('/login');
  const signIn = async (password: string) => {
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/login'));
  await signIn('wrong-pass-1');
  expect((await refused).status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText(SIGN_IN_FAILED);
  await expect(page.getByText('Invalid email or password')).toHaveCount(0);

  const answers: [string, (route: Route) => Promise<void>, string][] = [
    ['no answer', (route) => route.abort('connectionrefused'), 'Cannot connect to the server. Please check your network connection.'],
    ['server error', (route) => route.fulfill({ status: 500, json: {} }), 'Failed to login. Please try again later.'],
    ['bad gateway', (route) => route.fulfill({ status: 502, body: '' }), 'Failed to login. Please try again later.'],
    [
      'rate limit',
      (route) =>
        route.fulfill({
          status: 429,
          json: { error: 'Too many failed sign-in attempts. Please try again in 15 minutes.', code: 'rate_limited' },
        }),
      'Too many failed sign-in attempts. Please try again in 15 minutes.',
    ],
  ];
  for (const [what, answer, text] of answers) {
    await page.route('**/api/login', answer);
    await signIn('wrong-pass-1');
    await expect(page.getByRole('alert'), what).toHaveText(text);
    await page.unroute('**/api/login');
  }

  await signIn('right-pass-1');
  await expect(page).toHaveURL(/\/calendar/);
});

test("forgot and reset password say SPEC's words when the server fails, never its own; a refusal keeps the server's", async ({ page }) => {
  const SEND_FAILED = 'Failed to send password reset email. Please try again.';
  const RESET_FAILED = 'Failed to reset password. Please try again.';
  const rateLimited = (route: Route) =>
    route.fulfill({ status: 429, json: { error: 'Too many requests. Please try again in 60 seconds.', code: 'rate_limited' } });
  const answers: [string, (route: Route) => Promise<void>, string, string][] = [
    ['server error', (route) => route.fulfill({ status: 500, json: { error: 'boom' } }), SEND_FAILED, RESET_FAILED],
    [
      'unavailable',
      (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }),
      SEND_FAILED,
      RESET_FAILED,
    ],
    ['rate limit', rateLimited, 'Too many requests. Please try again in 60 seconds.', 'Too many requests. Please try again in 60 seconds.'],
  ];

  await page.goto('/forgot-password');
  await page.getByLabel('Email address').fill(uniqueEmail('reset-fail'));
  for (const [what, answer, text] of answers) {
    await page.route('**/api/password-reset/request', answer);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('alert'), what).toHaveText(text);
    await page.unroute('**/api/password-reset/request');
  }

  // A link whose token checks out, then a confirm that fails.
  await page.route('**/api/password-reset/validate**', (route) => route.fulfill({ status: 200, json: { valid: true } }));
  await page.goto('/reset-password?token=held-by-the-test');
  await page.getByLabel('New password').fill('new-pass-9');
  await page.getByLabel('Confirm password').fill('new-pass-9');
  for (const [what, answer, , text] of answers) {
    await page.route('**/api/password-reset/confirm', answer);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByRole('alert'), what).toHaveText(text);
    await page.unroute('**/api/password-reset/confirm');
  }
});

test('forgot and reset password end to end from the emailed link', async ({ page, context }) => {
  const email = uniqueEmail('reset-owner');
  const oldPassword = 'old-pass-1';
  const newPassword = 'new-pass-2';
  const registered = await api<{ token: string }>(page.request, null, 'POST', '/register', {
    name: 'Rita Reset',
    email,
    password: oldPassword,
    role: 'admin',
    company_name: `Reset Co ${Date.now().toString(36)}`,
  });
  expect(registered.status).toBe(200);

  // /login -> Forgot your password?
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  const emailField = page.getByLabel('Email address');
  await expect(emailField).toHaveAttribute('type', 'email');
  await expect(emailField).toHaveAttribute('required', '');

  // An unknown address gets the same answer as a known one (nothing is revealed).
  await emailField.fill(uniqueEmail('nobody'));
  const unknown = page.waitForResponse((r) => r.url().endsWith('/api/password-reset/request'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const unknownMessage = ((await (await unknown).json()) as { message: string }).message;
  await expect(page.getByRole('status').filter({ hasText: unknownMessage })).toBeVisible();

  await emailField.fill(email);
  const requested = page.waitForResponse((r) => r.url().endsWith('/api/password-reset/request'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const answer = await requested;
  expect(answer.status()).toBe(200);
  expect(answer.request().postDataJSON()).toEqual({ email_or_username: email });
  const message = ((await answer.json()) as { message: string }).message;
  expect(message).toBe(unknownMessage);
  await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible();

  // The email and its link.
  const mail = await waitForMail(email, (b) => b.includes('/reset-password?token='));
  expect(mail).toMatch(/^Subject: Reset your password$/m);
  const link = new URL(linkIn(mail, /https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>]+/));
  const linkPath = link.pathname + link.search;

  // 'Validating reset token...' while the validate call is out, the token already gone from
  // the address bar.
  const releaseValidate = await hold(page, '**/api/password-reset/validate**');
  const opened = await page.goto(linkPath);
  expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByText('Validating reset token...')).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  await expect(page).toHaveURL(/\/reset-password$/);
  releaseValidate();

  const f = {
    password: page.getByLabel('New password'),
    confirm: page.getByLabel('Confirm password'),
    submit: page.getByRole('button', { name: 'Reset password' }),
  };
  await expect(f.password).toBeVisible();
  await expectNoSeriousAxe(page, 'reset password', { wcag21aa: true });
  await shootAllSizes(page, 'reset-password');

  // A second tab opened the same link before it is used.
  const other = await context.newPage();
  await other.goto(linkPath);
  await expect(other.getByLabel('New password')).toBeVisible();

  // Validation: at least 6 characters, and matching.
  await f.password.fill('abc');
  await f.confirm.fill('abc');
  await f.submit.click();
  await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters long');
  await f.password.fill(newPassword);
  await f.confirm.fill(`${newPassword}x`);
  await f.submit.click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
  await f.confirm.fill(newPassword);

  const releaseConfirm = await hold(page, '**/api/password-reset/confirm');
  const confirmSent = page.waitForRequest((r) => r.url().endsWith('/api/password-reset/confirm'));
  await f.submit.click();
  await expect(page.getByRole('button', { name: 'Resetting...' })).toBeDisabled();
  releaseConfirm();
  const confirmBody = (await confirmSent).postDataJSON() as { token: string; new_password: string };
  expect(confirmBody).toEqual({ token: link.searchParams.get('token'), new_password: newPassword });

  // Success: the fields are disabled, and 2 s later the login page.
  const success = page.getByRole('status').filter({ hasText: 'Your password has been set. You can now sign in.' });
  await expect(success).toBeVisible();
  const shownAt = Date.now();
  await expect(f.password).toBeDisabled();
  await expect(f.confirm).toBeDisabled();
  await page.waitForTimeout(1_200);
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.waitForURL(/\/login$/, { timeout: 5_000 });
  expect(Date.now() - shownAt).toBeGreaterThanOrEqual(1_200);

  // The new password signs in (through the form); the old one no longer does.
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/calendar(\?.*)?$/);
  expect((await api(page.request, null, 'POST', '/login', { email, password: oldPassword })).status).toBe(400);
  // Setting the password ended the sessions from before it.
  expect((await api(page.request, registered.body.token, 'GET', '/me')).status).toBe(401);

  // The link works once: the other tab's submit is refused, and so is opening the link again.
  await other.getByLabel('New password').fill('third-pass-3');
  await other.getByLabel('Confirm password').fill('third-pass-3');
  await other.getByRole('button', { name: 'Reset password' }).click();
  await expect(other.getByRole('alert')).toHaveText(INVALID_TOKEN);
  await other.close();

  await page.evaluate(() => localStorage.removeItem('token'));
  await page.goto(linkPath);
  await expect(page.getByRole('alert')).toHaveText(INVALID_TOKEN);
  await expect(page.getByLabel('New password')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute('href', '/forgot-password');
  expect(
    (await api(page.request, null, 'POST', '/password-reset/confirm', { token: confirmBody.token, new_password: 'fourth-pass-4' })).status,
  ).toBe(400);
  expect((await api(page.request, null, 'POST', '/login', { email, password: newPassword })).status).toBe(200);

  // Without a token at all.
  await page.goto('/reset-password');
  await expect(page.getByRole('alert')).toHaveText('Invalid reset link. Please request a new password reset.');
});

test('public pages at three sizes: landing, pricing, faq, login, register, forgot and reset password', async ({ page }) => {
  const pages: [name: string, path: string, ready: (p: Page) => Promise<void>][] = [
    ['landing', '/', (p) => expect(p.getByRole('heading', { name: 'Online booking' })).toBeVisible()],
    ['pricing', '/pricing', (p) => expect(p.getByText('$79.99')).toBeVisible()],
    ['faq', '/faq', (p) => expect(p.locator('summary').first()).toBeVisible()],
    ['login', '/login', (p) => expect(p.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()],
    ['register', '/register', (p) => expect(p.getByLabel('Company name')).toBeVisible()],
    ['register-customer', '/register?company=demo', (p) => expect(p.getByText('Sign up as a customer of Demo Studio')).toBeVisible()],
    ['forgot-password', '/forgot-password', (p) => expect(p.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible()],
    [
      'reset-password-no-token',
      '/reset-password',
      (p) => expect(p.getByText('Invalid reset link. Please request a new password reset.')).toBeVisible(),
    ],
  ];
  for (const [name, path, ready] of pages) {
    await page.goto(path);
    await ready(page);
    await expectNoSeriousAxe(page, name, { wcag21aa: true });
    await shootAllSizes(page, name);
  }
  // The customer sign-up asks no company name.
  await page.goto('/register?company=demo');
  await expect(page.getByLabel('Full name')).toBeVisible();
  await expect(page.getByLabel('Company name')).toHaveCount(0);
});

test('a sign-up link naming no business says so instead of offering a form that can only fail', async ({ page }) => {
  await page.goto('/register?company=no-such-business');
  await expect(page.getByRole('alert').filter({ hasText: 'Company not found' })).toBeVisible();
  await expect(page.getByText('Check the link you were given, or sign up from the business’s booking page.')).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
});
