// The reset email reaches a real SMTP server, and its link works once and only once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { registerCompany, startTestServer, uniqueEmail, type TestServer } from '../../testing/harness.ts';
import { decodeQuotedPrintable, startTestSmtp, type TestSmtp } from '../../testing/smtp.ts';

describe.each(testDialects())('password reset on %s', (dialect) => {
  let t: TestServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestServer(dialect, { env: { SMTP_URL: smtp.url, DISABLE_SCHEDULER: 'false', APP_URL: 'https://book.example.test' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('answers the same for known and unknown addresses, and 400 for a malformed one', async () => {
    const { email } = await registerCompany(t);
    const known = await t.call('POST', '/password-reset/request', { body: { email_or_username: email } });
    const unknown = await t.call('POST', '/password-reset/request', { body: { email_or_username: uniqueEmail('ghost') } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    for (const bad of ['', 'nope', 'a@', null]) {
      const res = await t.call('POST', '/password-reset/request', { body: { email_or_username: bad } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid email address');
    }
  });

  it('emails a link whose token validates, sets the password once, and then is dead', async () => {
    const { email, token: oldSession } = await registerCompany(t);
    const req = await t.call('POST', '/password-reset/request', { body: { email_or_username: email } });
    expect(req.status).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const body = decodeQuotedPrintable(mail.raw);
    expect(body).toMatch(/Subject: Reset your password/);
    const link = /https:\/\/book\.example\.test\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(body);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]);
    // Only the hash is stored.
    const stored = await t.db.selectFrom('password_tokens').select('token_hash').execute();
    expect(stored.some((r) => r.token_hash === token)).toBe(false);

    const valid = await t.call('GET', `/password-reset/validate?token=${encodeURIComponent(token)}`);
    expect(valid.status).toBe(200);
    expect(valid.headers.get('referrer-policy')).toBe('no-referrer');
    const short = await t.call('POST', '/password-reset/confirm', { body: { token, new_password: '123' } });
    expect(short.status).toBe(400);
    const ok = await t.call('POST', '/password-reset/confirm', { body: { token, new_password: 'brand-new-1' } });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBeTruthy();
    const again = await t.call('POST', '/password-reset/confirm', { body: { token, new_password: 'brand-new-2' } });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('Invalid or expired reset token');
    const invalid = await t.call('GET', `/password-reset/validate?token=${encodeURIComponent(token)}`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('Invalid or expired reset token');
    expect((await t.call('GET', '/me', { token: oldSession })).status).toBe(401);
    expect((await t.call('POST', '/login', { body: { email, password: 'brand-new-1' } })).status).toBe(200);
    const sent = await t.db.selectFrom('outbox_messages').select(['state', 'message_id']).where('to_address', '=', email).execute();
    expect(sent.every((m) => m.state === 'sent')).toBe(true);
    expect(mail.raw).toContain(sent[0].message_id);
  });

  /** The decoded first-password email that reached `email` (the account has no password yet). */
  const firstPasswordMail = async (email: string) =>
    decodeQuotedPrintable(
      (await smtp.waitFor((m) => m.to.includes(email) && decodeQuotedPrintable(m.raw).includes('There is no password yet'))).raw,
    );

  /** Sets `password` through the link in the email `body`, then signs in with it (both must succeed). */
  const setPasswordFromMail = async (body: string, email: string, password: string) => {
    const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(body)![1]);
    expect((await t.call('POST', '/password-reset/confirm', { body: { token, new_password: password } })).status).toBe(200);
    const login = await t.call('POST', '/login', { body: { email, password } });
    expect(login.status).toBe(200);
    return login.body.token as string;
  };

  it('someone who booked without an account gets a link that sets their first password', async () => {
    const owner = await registerCompany(t, { company_name: 'Guest Studio' });
    const email = uniqueEmail('guest');
    // A password-less customer record, as a booking leaves (staff adding one is the same row).
    const added = await t.call('POST', '/users/customer', { token: owner.token, body: { name: 'Gail Guest', email } });
    expect(added.status).toBe(201);
    const req = await t.call('POST', '/password-reset/request', { body: { email_or_username: email } });
    expect(req.status).toBe(200);

    const body = await firstPasswordMail(email);
    expect(body).toMatch(/Subject: Set your password for Guest Studio/);
    expect(body).toContain('Someone asked to reset the password for this email address at Guest Studio.');
    expect(body).toContain('within one hour');
    const session = await setPasswordFromMail(body, email, 'first-pass-1');
    const me = await t.call('GET', '/me', { token: session });
    expect(me.body).toMatchObject({ id: added.body.id, role: 'customer', company_id: owner.companyId, has_password: true });
  });

  it('an employee added by staff who never used their invitation gets a link that sets their first password', async () => {
    const owner = await registerCompany(t, { company_name: 'Staff Studio' });
    const email = uniqueEmail('new-hire');
    const added = await t.call('POST', '/users/employee', { token: owner.token, body: { name: 'Nell Newhire', email } });
    expect(added.status).toBe(201);
    // The invitation is lost or over: its 7 days ran out.
    await t.db
      .updateTable('password_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', added.body.id)
      .execute();
    const req = await t.call('POST', '/password-reset/request', { body: { email_or_username: email } });
    expect(req.status).toBe(200);

    const body = await firstPasswordMail(email);
    expect(body).toMatch(/Subject: Set your password for Staff Studio/);
    expect(body).toContain('There is no password yet: an account was made for you there, and its invitation was not used.');
    expect(body).not.toContain('from a booking');
    const session = await setPasswordFromMail(body, email, 'first-pass-2');
    expect((await t.call('GET', '/me', { token: session })).body).toMatchObject({ id: added.body.id, role: 'employee' });
  });

  it('refuses expired and made-up tokens', async () => {
    const { email } = await registerCompany(t);
    await t.call('POST', '/password-reset/request', { body: { email_or_username: email } });
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(decodeQuotedPrintable(mail.raw))![1]);
    await t.db
      .updateTable('password_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await t.call('POST', '/password-reset/confirm', { body: { token, new_password: 'whatever1' } })).status).toBe(400);
    expect((await t.call('POST', '/password-reset/confirm', { body: { token: 'made-up', new_password: 'whatever1' } })).body.error).toBe(
      'Invalid or expired reset token',
    );
    expect((await t.call('GET', '/password-reset/validate')).status).toBe(400);
  });
});
