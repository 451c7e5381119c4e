// Duration endpoints over real HTTP on every test dialect: the global catalogue, company options and defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';

const BAD_IDS = ['0', '-1', '1.5', 'abc', '99999999999'];
const NOT_OFFERED = 'The default duration must be one of the durations the company offers';

describe.each(testDialects())('durations on %s', (dialect) => {
  let t: TestServer;
  let a: TestCompany;
  let b: TestCompany;
  let global: TestPerson;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    a = await companyWithPeople(t, 'Alpha Salon');
    b = await companyWithPeople(t, 'Beta Spa');
    global = await addGlobalAdmin(t);
  });
  afterAll(async () => t?.close());

  const everything = async () => ({
    catalogue: await t.db.selectFrom('appointment_duration_options').selectAll().orderBy('id').execute(),
    offered: await t.db.selectFrom('company_duration_options').selectAll().orderBy('id').execute(),
    defaults: await t.db.selectFrom('company_duration_defaults').selectAll().orderBy('id').execute(),
  });
  const catalogueId = async (minutes: number) => {
    const list = (await t.call('GET', '/appointment-duration-options')).body as { id: number; duration_minutes: number }[];
    return list.find((o) => o.duration_minutes === minutes)?.id;
  };
  const offeredRow = async (company: TestCompany, minutes: number) => {
    const list = (await t.call('GET', `/company-duration-options?company_id=${company.companyId}`)).body as any[];
    return list.find((o) => o.duration_minutes === minutes);
  };

  describe('the global catalogue', () => {
    it('is readable by anyone, shortest first, seeded with 15, 30, 45, 60, 90 and 120 minutes', async () => {
      const res = await t.call('GET', '/appointment-duration-options');
      expect(res.status).toBe(200);
      expect(res.body.map((o: any) => o.duration_minutes)).toEqual([15, 30, 45, 60, 90, 120]);
      expect(Object.keys(res.body[0]).sort()).toEqual(['duration_minutes', 'id']);
      const one = await t.call('GET', `/appointment-duration-options/${res.body[2].id}`, { token: a.customer.token });
      expect(one.body).toEqual(res.body[2]);
      expect((await t.call('GET', '/appointment-duration-options/999999')).status).toBe(404);
      for (const bad of BAD_IDS) expect((await t.call('GET', `/appointment-duration-options/${bad}`)).status, bad).toBe(400);
    });

    it('is changed by global_admin only; duplicates answer 409', async () => {
      const before = await everything();
      for (const who of [a.admin, a.manager, a.employee, a.user, a.customer]) {
        expect(
          (await t.call('POST', '/appointment-duration-options', { token: who.token, body: { duration_minutes: 50 } })).status,
          who.role,
        ).toBe(403);
        expect(
          (
            await t.call('PUT', `/appointment-duration-options/${before.catalogue[0].id}`, {
              token: who.token,
              body: { duration_minutes: 50 },
            })
          ).status,
        ).toBe(403);
        expect((await t.call('DELETE', `/appointment-duration-options/${before.catalogue[5].id}`, { token: who.token })).status).toBe(403);
      }
      expect((await t.call('POST', '/appointment-duration-options', { body: { duration_minutes: 50 } })).status).toBe(401);
      const dup = await t.call('POST', '/appointment-duration-options', { token: global.token, body: { duration_minutes: 30 } });
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe('conflict');
      for (const body of [
        {},
        { duration_minutes: 0 },
        { duration_minutes: 1441 },
        { duration_minutes: 2.5 },
        { duration_minutes: '50' },
        { duration_minutes: null },
        [],
      ]) {
        expect((await t.call('POST', '/appointment-duration-options', { token: global.token, body })).status, JSON.stringify(body)).toBe(
          400,
        );
      }
      expect((await t.call('POST', '/appointment-duration-options', { token: global.token, raw: '{"duration_minutes":' })).status).toBe(
        400,
      );
      expect(await everything()).toEqual(before);
      const made = await t.call('POST', '/appointment-duration-options', { token: global.token, body: { duration_minutes: 50 } });
      expect(made.status).toBe(201);
      expect(made.body).toEqual({ id: expect.any(Number), duration_minutes: 50 });
      const same = await t.call('PUT', `/appointment-duration-options/${made.body.id}`, {
        token: global.token,
        body: { duration_minutes: 50 },
      });
      expect(same.status).toBe(200);
      const clash = await t.call('PATCH', `/appointment-duration-options/${made.body.id}`, {
        token: global.token,
        body: { duration_minutes: 45 },
      });
      expect(clash.status).toBe(409);
    });

    it('moves the defaults of companies offering a changed duration along with it', async () => {
      const c = await companyWithPeople(t, 'Catalogue Co');
      const made = (await t.call('POST', '/appointment-duration-options', { token: global.token, body: { duration_minutes: 100 } })).body;
      expect(
        (await t.call('POST', '/company-duration-options', { token: c.admin.token, body: { appointment_duration_option_id: made.id } }))
          .status,
      ).toBe(201);
      expect(
        (await t.call('POST', '/company-duration-defaults', { token: c.admin.token, body: { default_appointment_duration: 100 } })).status,
      ).toBe(200);
      const res = await t.call('PUT', `/appointment-duration-options/${made.id}`, { token: global.token, body: { duration_minutes: 105 } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: made.id, duration_minutes: 105 });
      expect((await t.call('GET', `/company-duration-defaults/company/${c.companyId}`)).body.default_appointment_duration).toBe(105);
      // Companies that do not offer it keep their default.
      expect((await t.call('GET', `/company-duration-defaults/company/${a.companyId}`)).body.default_appointment_duration).toBe(30);

      // Removing it is refused while it is a company's default; afterwards it leaves every company's offer.
      const refused = await t.call('DELETE', `/appointment-duration-options/${made.id}`, { token: global.token });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatch(/default duration of 1 company/);
      expect(
        (await t.call('POST', '/company-duration-defaults', { token: c.admin.token, body: { default_appointment_duration: 30 } })).status,
      ).toBe(200);
      expect((await t.call('DELETE', `/appointment-duration-options/${made.id}`, { token: global.token })).status).toBe(204);
      expect(await offeredRow(c, 105)).toBeUndefined();
      expect((await t.call('GET', `/appointment-duration-options/${made.id}`)).status).toBe(404);
      expect((await t.call('DELETE', `/appointment-duration-options/${made.id}`, { token: global.token })).status).toBe(404);
    });
  });

  describe('company duration options', () => {
    it('lists what a company offers, with minutes joined, to anyone; staff default to their company', async () => {
      const res = await t.call('GET', `/company-duration-options?company_id=${a.companyId}`);
      expect(res.status).toBe(200);
      expect(res.body.map((o: any) => o.duration_minutes)).toEqual([15, 30, 45, 60]);
      expect(res.body[0]).toEqual({
        id: expect.any(Number),
        company_id: a.companyId,
        appointment_duration_option_id: await catalogueId(15),
        duration_minutes: 15,
      });
      const own = await t.call('GET', '/company-duration-options', { token: b.employee.token });
      expect(own.body.every((o: any) => o.company_id === b.companyId)).toBe(true);
      expect((await t.call('GET', '/company-duration-options')).status).toBe(400);
      expect((await t.call('GET', '/company-duration-options?company_id=999999')).status).toBe(404);
      for (const bad of BAD_IDS) expect((await t.call('GET', `/company-duration-options?company_id=${bad}`)).status, bad).toBe(400);
      const one = await t.call('GET', `/company-duration-options/${res.body[1].id}`);
      expect(one.body).toEqual(res.body[1]);
      expect((await t.call('GET', '/company-duration-options/999999')).status).toBe(404);
      for (const bad of BAD_IDS) expect((await t.call('GET', `/company-duration-options/${bad}`)).status, bad).toBe(400);
    });

    it('lets admins and managers offer a catalogue duration by id or minutes; duplicates 409, unknowns 400', async () => {
      const byId = await t.call('POST', '/company-duration-options', {
        token: a.admin.token,
        body: { appointment_duration_option_id: await catalogueId(90) },
      });
      expect(byId.status).toBe(201);
      expect(byId.body).toMatchObject({ company_id: a.companyId, duration_minutes: 90 });
      const byMinutes = await t.call('POST', '/company-duration-options', { token: a.manager.token, body: { duration_minutes: 120 } });
      expect(byMinutes.status).toBe(201);
      expect(byMinutes.body.appointment_duration_option_id).toBe(await catalogueId(120));
      const before = await everything();
      expect((await t.call('POST', '/company-duration-options', { token: a.admin.token, body: { duration_minutes: 90 } })).status).toBe(
        409,
      );
      const cases: [unknown, string | RegExp][] = [
        [{}, 'appointment_duration_option_id is required'],
        [{ appointment_duration_option_id: 999999 }, 'Unknown appointment_duration_option_id'],
        [{ duration_minutes: 17 }, /No duration option of 17 minutes/],
        [{ appointment_duration_option_id: await catalogueId(15), duration_minutes: 45 }, /disagree/],
        [{ appointment_duration_option_id: '5' }, /positive integer/],
        [{ appointment_duration_option_id: -1 }, /positive integer/],
        [{ duration_minutes: 0 }, /at least 1/],
      ];
      for (const [body, message] of cases) {
        const res = await t.call('POST', '/company-duration-options', { token: a.admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        if (typeof message === 'string') expect(res.body.error).toBe(message);
        else expect(res.body.error).toMatch(message);
      }
      for (const who of [a.employee, a.user, a.customer]) {
        expect(
          (await t.call('POST', '/company-duration-options', { token: who.token, body: { duration_minutes: 90 } })).status,
          who.role,
        ).toBe(403);
      }
      expect((await t.call('POST', '/company-duration-options', { body: { duration_minutes: 90 } })).status).toBe(401);
      expect(
        (
          await t.call('POST', '/company-duration-options', {
            token: b.admin.token,
            body: { company_id: a.companyId, duration_minutes: 90 },
          })
        ).status,
      ).toBe(404);
      expect((await t.call('POST', '/company-duration-options', { token: global.token, body: { duration_minutes: 90 } })).status).toBe(400);
      expect(
        (await t.call('POST', '/company-duration-options', { token: global.token, body: { company_id: 999999, duration_minutes: 90 } }))
          .status,
      ).toBe(404);
      expect(await everything()).toEqual(before);
      const byGlobal = await t.call('POST', '/company-duration-options', {
        token: global.token,
        body: { company_id: b.companyId, duration_minutes: 90 },
      });
      expect(byGlobal.status).toBe(201);
    });

    it("swaps or removes an offered duration, never the company default, never another company's", async () => {
      const c = await companyWithPeople(t, 'Options Co');
      const fifteen = await offeredRow(c, 15);
      const thirty = await offeredRow(c, 30);
      const swapped = await t.call('PUT', `/company-duration-options/${fifteen.id}`, {
        token: c.admin.token,
        body: { duration_minutes: 90 },
      });
      expect(swapped.status).toBe(200);
      expect(swapped.body).toEqual({
        id: fifteen.id,
        company_id: c.companyId,
        appointment_duration_option_id: await catalogueId(90),
        duration_minutes: 90,
      });
      const before = await everything();
      const theDefault = await t.call('PATCH', `/company-duration-options/${thirty.id}`, {
        token: c.admin.token,
        body: { duration_minutes: 120 },
      });
      expect(theDefault.status).toBe(409);
      expect(theDefault.body.error).toMatch(/default duration/);
      expect(
        (await t.call('PUT', `/company-duration-options/${fifteen.id}`, { token: c.admin.token, body: { duration_minutes: 45 } })).status,
      ).toBe(409);
      expect(
        (await t.call('PUT', `/company-duration-options/${fifteen.id}`, { token: c.admin.token, body: { company_id: a.companyId } }))
          .status,
      ).toBe(400);
      expect((await t.call('DELETE', `/company-duration-options/${thirty.id}`, { token: c.admin.token })).status).toBe(409);
      // Another company's admins: not found. (Its employees are refused by role first, whatever the id: 403.)
      for (const who of [a.admin, a.manager]) {
        expect(
          (await t.call('PUT', `/company-duration-options/${fifteen.id}`, { token: who.token, body: { duration_minutes: 120 } })).status,
          who.role,
        ).toBe(404);
        expect((await t.call('DELETE', `/company-duration-options/${fifteen.id}`, { token: who.token })).status, who.role).toBe(404);
      }
      for (const who of [c.employee, c.user, c.customer]) {
        expect(
          (await t.call('PUT', `/company-duration-options/${fifteen.id}`, { token: who.token, body: { duration_minutes: 120 } })).status,
          who.role,
        ).toBe(403);
        expect((await t.call('DELETE', `/company-duration-options/${fifteen.id}`, { token: who.token })).status, who.role).toBe(403);
      }
      for (const bad of BAD_IDS) {
        expect(
          (await t.call('PUT', `/company-duration-options/${bad}`, { token: c.admin.token, body: { duration_minutes: 120 } })).status,
          bad,
        ).toBe(400);
        expect((await t.call('DELETE', `/company-duration-options/${bad}`, { token: c.admin.token })).status, bad).toBe(400);
      }
      expect(await everything()).toEqual(before);
      expect((await t.call('DELETE', `/company-duration-options/${fifteen.id}`, { token: c.manager.token })).status).toBe(204);
      expect(await offeredRow(c, 90)).toBeUndefined();
      expect((await t.call('DELETE', `/company-duration-options/${fifteen.id}`, { token: c.manager.token })).status).toBe(404);
    });
  });

  describe('company duration defaults', () => {
    it("reads a company's default publicly, by company, by id and as a list", async () => {
      const res = await t.call('GET', `/company-duration-defaults/company/${a.companyId}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: expect.any(Number), company_id: a.companyId, default_appointment_duration: 30 });
      expect((await t.call('GET', `/company-duration-defaults/${res.body.id}`)).body).toEqual(res.body);
      expect((await t.call('GET', `/company-duration-defaults?company_id=${a.companyId}`)).body).toEqual([res.body]);
      expect((await t.call('GET', '/company-duration-defaults', { token: a.employee.token })).body).toEqual([res.body]);
      expect((await t.call('GET', '/company-duration-defaults')).status).toBe(400);
      expect((await t.call('GET', '/company-duration-defaults/company/999999')).status).toBe(404);
      expect((await t.call('GET', '/company-duration-defaults/999999')).status).toBe(404);
      for (const bad of BAD_IDS) {
        expect((await t.call('GET', `/company-duration-defaults/${bad}`)).status, bad).toBe(400);
        expect((await t.call('GET', `/company-duration-defaults/company/${bad}`)).status, bad).toBe(400);
      }
    });

    it('keeps one row per company: POST updates it; the default must be an offered duration', async () => {
      const c = await companyWithPeople(t, 'Defaults Co');
      const current = (await t.call('GET', `/company-duration-defaults/company/${c.companyId}`)).body;
      const res = await t.call('POST', '/company-duration-defaults', {
        token: c.manager.token,
        body: { default_appointment_duration: 45 },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: current.id, company_id: c.companyId, default_appointment_duration: 45 });
      const before = await everything();
      const notOffered = await t.call('POST', '/company-duration-defaults', {
        token: c.admin.token,
        body: { default_appointment_duration: 90 },
      });
      expect(notOffered.status).toBe(400);
      expect(notOffered.body.error).toBe(NOT_OFFERED);
      const put = await t.call('PUT', `/company-duration-defaults/${current.id}`, {
        token: c.admin.token,
        body: { default_appointment_duration: 90 },
      });
      expect(put.status).toBe(400);
      expect(put.body.error).toBe(NOT_OFFERED);
      for (const body of [
        {},
        { default_appointment_duration: 0 },
        { default_appointment_duration: '45' },
        { default_appointment_duration: 1441 },
        { company_id: 'x', default_appointment_duration: 45 },
      ]) {
        expect((await t.call('POST', '/company-duration-defaults', { token: c.admin.token, body })).status, JSON.stringify(body)).toBe(400);
      }
      expect((await t.call('POST', '/company-duration-defaults', { token: c.admin.token, raw: 'default=45' })).status).toBe(400);
      for (const who of [c.employee, c.user, c.customer]) {
        expect(
          (await t.call('POST', '/company-duration-defaults', { token: who.token, body: { default_appointment_duration: 60 } })).status,
          who.role,
        ).toBe(403);
        expect(
          (
            await t.call('PUT', `/company-duration-defaults/${current.id}`, {
              token: who.token,
              body: { default_appointment_duration: 60 },
            })
          ).status,
          who.role,
        ).toBe(403);
        expect((await t.call('DELETE', `/company-duration-defaults/${current.id}`, { token: who.token })).status, who.role).toBe(403);
      }
      for (const who of [a.admin, a.manager]) {
        expect(
          (
            await t.call('PUT', `/company-duration-defaults/${current.id}`, {
              token: who.token,
              body: { default_appointment_duration: 60 },
            })
          ).status,
          who.role,
        ).toBe(404);
        expect((await t.call('DELETE', `/company-duration-defaults/${current.id}`, { token: who.token })).status, who.role).toBe(404);
      }
      expect(
        (
          await t.call('POST', '/company-duration-defaults', {
            token: a.admin.token,
            body: { company_id: c.companyId, default_appointment_duration: 60 },
          })
        ).status,
      ).toBe(404);
      expect(
        (await t.call('PUT', `/company-duration-defaults/${current.id}`, { token: c.admin.token, body: { company_id: a.companyId } }))
          .status,
      ).toBe(400);
      expect(await everything()).toEqual(before);

      const changed = await t.call('PUT', `/company-duration-defaults/${current.id}`, {
        token: c.admin.token,
        body: { default_appointment_duration: 60 },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.default_appointment_duration).toBe(60);
      const patched = await t.call('PATCH', `/company-duration-defaults/${current.id}`, {
        token: global.token,
        body: { default_appointment_duration: 15 },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.default_appointment_duration).toBe(15);
    });

    it('deletes the default (204); a later POST creates a new row (201)', async () => {
      const c = await companyWithPeople(t, 'Fresh Default Co');
      const current = (await t.call('GET', `/company-duration-defaults/company/${c.companyId}`)).body;
      expect((await t.call('DELETE', `/company-duration-defaults/${current.id}`, { token: c.admin.token })).status).toBe(204);
      expect((await t.call('GET', `/company-duration-defaults/company/${c.companyId}`)).status).toBe(404);
      expect((await t.call('GET', `/company-duration-defaults?company_id=${c.companyId}`)).body).toEqual([]);
      const created = await t.call('POST', '/company-duration-defaults', {
        token: c.admin.token,
        body: { default_appointment_duration: 60 },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ company_id: c.companyId, default_appointment_duration: 60 });
      const byGlobal = await t.call('POST', '/company-duration-defaults', {
        token: global.token,
        body: { company_id: c.companyId, default_appointment_duration: 15 },
      });
      expect(byGlobal.status).toBe(200);
      expect(byGlobal.body.id).toBe(created.body.id);
      expect(
        (await t.call('POST', '/company-duration-defaults', { token: global.token, body: { default_appointment_duration: 15 } })).status,
      ).toBe(400);
      expect((await t.call('GET', '/health')).status).toBe(200);
    });
  });
});
