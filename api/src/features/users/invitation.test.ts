// Invitations end to end: staff add a person, a real SMTP server receives the email, and its link
// sets the first password, after which the person signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { registerCompany, startTestServer, uniqueEmail, type TestServer } from '../../testing/harness.ts';
import { decodeQuotedPrintable, startTestSmtp, type TestSmtp } from '../../testing/smtp.ts';

describe.each(testDialects())('invitations on %s', (dialect) => {
  let t: TestServer;
  let smtp: TestSmtp;
  let owner: Awaited<ReturnType<typeof registerCompany>>;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestServer(dialect, { env: { SMTP_URL: smtp.url, DISABLE_SCHEDULER: 'false', APP_URL: 'https://book.example.test' } });
    owner = await registerCompany(t, { company_name: 'Invite Studio' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function inviteLink(email: string): Promise<{ token: string; body: string }> {
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const body = decodeQuotedPrintable(mail.raw);
    const link = /https:\/\/book\.example\.test\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(body);
    expect(link).not.toBeNull();
    return { token: decodeURIComponent(link![1]), body };
  }

  for (const [path, role] of [
    ['/users/employee', 'manager'],
    ['/users/customer', 'customer'],
  ] as const) {
    it(`${path}: the email arrives, its link sets the password once, and the person signs in`, async () => {
      const email = uniqueEmail(`invited-${role}`);
      const res = await t.call('POST', path, {
        token: owner.token,
        body: { name: 'Invited Person', email, role: role === 'customer' ? undefined : role },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ email, role, has_password: false });
      expect((await t.call('POST', '/login', { body: { email, password: 'anything1' } })).status).toBe(400);

      const { token, body } = await inviteLink(email);
      expect(body).toMatch(/Subject: Set your password for Invite Studio/);
      expect(body).toContain('within 7 days');
      expect((await t.call('GET', `/password-reset/validate?token=${encodeURIComponent(token)}`)).status).toBe(200);
      const set = await t.call('POST', '/password-reset/confirm', { body: { token, new_password: 'first-password' } });
      expect(set.status).toBe(200);
      expect((await t.call('POST', '/password-reset/confirm', { body: { token, new_password: 'second-password' } })).status).toBe(400);

      const login = await t.call('POST', '/login', { body: { email, password: 'first-password' } });
      expect(login.status).toBe(200);
      const me = await t.call('GET', '/me', { token: login.body.token });
      expect(me.body).toMatchObject({ id: res.body.id, role, company_id: owner.companyId, has_password: true });
    });
  }

  it('a customer on record who signs up is sent a link that says they asked for it; the typed password is not set', async () => {
    const email = uniqueEmail('known-customer');
    const added = await t.call('POST', '/users/customer', { token: owner.token, body: { name: 'Known Customer', email } });
    expect(added.status).toBe(201);
    const slug = (await t.call('GET', `/companies/${owner.companyId}`, { token: owner.token })).body.slug as string;
    const res = await t.call('POST', '/register', {
      body: { name: 'Known Customer', email, password: 'typed-here', role: 'customer', company_slug: slug },
    });
    expect(res.status).toBe(202);
    expect((await t.call('POST', '/login', { body: { email, password: 'typed-here' } })).status).toBe(400);

    const mail = await smtp.waitFor((m) => m.to.includes(email) && decodeQuotedPrintable(m.raw).includes('asked to create an account'));
    const body = decodeQuotedPrintable(mail.raw);
    expect(body).toMatch(/Subject: Set your password for Invite Studio/);
    expect(body).toContain('Someone asked to create an account at Invite Studio with this email address.');
    expect(body).toContain('Invite Studio already has it on record, so to make sure the address is yours');
    expect(body).not.toContain('An account was created for you');
  });

  it('"Send the invitation again": a fresh link for someone without a password, the old one dies; 409 once they have one', async () => {
    const email = uniqueEmail('lost-invite');
    const res = await t.call('POST', '/users/employee', { token: owner.token, body: { name: 'Lost Invite', email } });
    expect(res.status).toBe(201);
    const first = await inviteLink(email);
    const again = await t.call('POST', `/users/${res.body.id}/invitation`, { token: owner.token });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ message: 'Invitation sent' });
    const mail = await smtp.waitFor((m) => m.to.includes(email) && !decodeQuotedPrintable(m.raw).includes(encodeURIComponent(first.token)));
    const body = decodeQuotedPrintable(mail.raw);
    expect(body).toMatch(/Subject: Set your password for Invite Studio/);
    expect(body).toContain('within 7 days');
    const second = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(body)![1]);
    expect(second).not.toBe(first.token);
    expect((await t.call('POST', '/password-reset/confirm', { body: { token: first.token, new_password: 'old-link-1' } })).status).toBe(
      400,
    );
    expect((await t.call('POST', '/password-reset/confirm', { body: { token: second, new_password: 'new-link-1' } })).status).toBe(200);
    expect((await t.call('POST', '/login', { body: { email, password: 'new-link-1' } })).status).toBe(200);

    const late = await t.call('POST', `/users/${res.body.id}/invitation`, { token: owner.token });
    expect(late.status).toBe(409);
    expect(late.body.error).toContain('Forgot your password?');
  });

  it('sends a fresh invitation to a corrected address; the link sent to the wrong one dies', async () => {
    const typo = uniqueEmail('typo');
    const res = await t.call('POST', '/users/employee', { token: owner.token, body: { name: 'Typo Person', email: typo } });
    const old = await inviteLink(typo);
    const fixed = uniqueEmail('fixed');
    const put = await t.call('PUT', `/users/${res.body.id}`, { token: owner.token, body: { email: fixed } });
    expect(put.status).toBe(200);
    expect(put.body.email).toBe(fixed);
    expect((await t.call('POST', '/password-reset/confirm', { body: { token: old.token, new_password: 'stolen-pass' } })).status).toBe(400);
    const fresh = await inviteLink(fixed);
    expect((await t.call('POST', '/password-reset/confirm', { body: { token: fresh.token, new_password: 'right-pass' } })).status).toBe(
      200,
    );
    expect((await t.call('POST', '/login', { body: { email: fixed, password: 'right-pass' } })).status).toBe(200);
  });
});
