// The admins' outbox (docs/decisions/10-reminders-and-sms.md) over HTTP on both databases, with messages that really failed:
// the test SMTP server refuses 'reject-always' and (the first time) 'reject-once' recipients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { startTestSmtp, type HeldSmtp } from '../../testing/smtp.ts';

describe.each(testDialects())('company messages (%s)', (dialect) => {
  let t: TestServer;
  let smtp: HeldSmtp;
  let a: TestCompany;
  let b: TestCompany;
  let root: TestPerson;
  const tag = Math.random().toString(36).slice(2, 8);
  const always = `reject-always.${tag}@example.test`;
  const once = `reject-once.${tag}@example.test`;
  const fine = `fine.${tag}@example.test`;

  const messages = (query = '', token = a.admin.token, company = a.companyId) =>
    t.call('GET', `/companies/${company}/messages${query}`, { token });
  const idOf = async (to: string) => (await messages()).body.find((m: { to: string }) => m.to === to)!.id as number;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestServer(dialect, { env: { SMTP_URL: smtp.url, APP_URL: 'http://app.test' } });
    a = await companyWithPeople(t, 'Alpha');
    b = await companyWithPeople(t, 'Beta');
    root = await addGlobalAdmin(t);
    for (const email of [always, once, fine]) {
      const res = await t.call('POST', '/users', { token: a.admin.token, body: { name: 'Customer', email, role: 'customer' } });
      expect(res.status).toBe(201);
    }
    await t.call('POST', '/users', { token: b.admin.token, body: { name: 'Customer', email: `b.${tag}@example.test`, role: 'customer' } });
    await t.server.dispatcher.runOnce();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("lists the company's messages newest first, with state and reason and nothing secret", async () => {
    const res = await messages();
    expect(res.status).toBe(200);
    expect(res.body.map((m: { to: string }) => m.to)).toEqual([fine, once, always]);
    expect(res.body[2]).toEqual({
      id: expect.any(Number),
      kind: 'invitation',
      channel: 'email',
      to: always,
      state: 'dead',
      due_at: expect.any(String),
      sent_at: null,
      attempts: 1,
      last_error: expect.stringContaining('550'),
      appointment_id: null,
    });
    expect(res.body[0]).toMatchObject({ to: fine, state: 'sent', last_error: null, sent_at: expect.any(String) });
    // The invitation carries a set-password link with a token: neither may appear here.
    expect(res.text).not.toMatch(/reset-password|token=|http:\/\/app\.test/);
    expect(smtp.messages.some((m) => m.raw.includes('reset-password'))).toBe(true);
  });

  it('filters by state, kind, appointment and limit; refuses unknown values', async () => {
    expect((await messages('?state=dead')).body.map((m: { to: string }) => m.to)).toEqual([once, always]);
    expect((await messages('?state=sent&kind=invitation')).body.map((m: { to: string }) => m.to)).toEqual([fine]);
    expect((await messages('?kind=reminder')).body).toEqual([]);
    expect((await messages('?appointment_id=999999')).body).toEqual([]);
    expect((await messages('?limit=1')).body).toHaveLength(1);
    for (const bad of ['?state=lost', '?kind=appointment_confirmation', '?limit=0', '?limit=many', '?appointment_id=x']) {
      const res = await messages(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('validation');
    }
  });

  it('is for the company admins and managers and global_admin only; another company answers 404', async () => {
    expect((await messages('', a.manager.token)).status).toBe(200);
    expect((await messages('', root.token)).body).toHaveLength(3);
    for (const who of [a.employee, a.user, a.customer]) expect((await messages('', who.token)).status).toBe(403);
    expect((await messages('', null as unknown as string)).status).toBe(401);
    expect((await messages('', b.admin.token)).status).toBe(404);
    expect((await messages('', root.token, 987654)).status).toBe(404);
    // Company B's own list holds only its message.
    expect((await messages('', b.admin.token, b.companyId)).body.map((m: { to: string }) => m.to)).toEqual([`b.${tag}@example.test`]);
  });

  it('retries a dead message: pending again at once, then sent by the dispatcher', async () => {
    const id = await idOf(once);
    const retry = await t.call('POST', `/companies/${a.companyId}/messages/${id}/retry`, { token: a.manager.token });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ id, state: 'pending', attempts: 0, to: once });
    await t.server.dispatcher.runOnce();
    const after = (await messages()).body.find((m: { id: number }) => m.id === id);
    expect(after).toMatchObject({ state: 'sent', attempts: 1, last_error: null });
    expect(smtp.messages.filter((m) => m.to.includes(once))).toHaveLength(1);

    // Refused again permanently, the other one is dead again after its retry.
    const dead = await idOf(always);
    expect((await t.call('POST', `/companies/${a.companyId}/messages/${dead}/retry`, { token: root.token })).status).toBe(200);
    await t.server.dispatcher.runOnce();
    expect((await messages()).body.find((m: { id: number }) => m.id === dead)).toMatchObject({ state: 'dead', attempts: 1 });
  });

  it('answers 409 for a message that is not failed or dead, 404 for one that is not the company’s', async () => {
    const sent = await idOf(fine);
    const res = await t.call('POST', `/companies/${a.companyId}/messages/${sent}/retry`, { token: a.admin.token });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', error: 'Only a failed or dead message can be retried; this one is sent' });

    const dead = await idOf(always);
    const denied = [
      [`/companies/${a.companyId}/messages/${dead}/retry`, b.admin.token, 404],
      [`/companies/${b.companyId}/messages/${dead}/retry`, b.admin.token, 404],
      [`/companies/${a.companyId}/messages/99999999/retry`, a.admin.token, 404],
      [`/companies/${a.companyId}/messages/${dead}/retry`, a.employee.token, 403],
    ] as const;
    for (const [path, token, status] of denied) expect((await t.call('POST', path, { token })).status, path).toBe(status);
    expect((await messages()).body.find((m: { id: number }) => m.id === dead)).toMatchObject({ state: 'dead' });
  });

  it('answers 409 for a message whose recipient was erased: nobody to send it to, nothing to send', async () => {
    const gone = `reject-always.gone.${tag}@example.test`;
    const made = await t.call('POST', '/users', { token: a.admin.token, body: { name: 'Gone Soon', email: gone, role: 'customer' } });
    expect(made.status).toBe(201);
    await t.server.dispatcher.runOnce();
    const dead = await idOf(gone);
    expect((await t.call('POST', `/users/${made.body.id}/erase`, { token: a.admin.token })).status).toBe(200);
    const res = await t.call('POST', `/companies/${a.companyId}/messages/${dead}/retry`, { token: a.admin.token });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({
      code: 'conflict',
      error: "The recipient's data was erased: this message cannot be sent",
      state: 'dead',
    });
    expect((await messages()).body.find((m: { id: number }) => m.id === dead)).toMatchObject({ state: 'dead', to: 'erased' });
  });
});
