// Who performs a service binds staff too (docs/decisions/27-scheduling-rules.md): a staff booking and a
// staff change (PUT /appointments/{id}) may pair an employee only with services they perform, with the
// same 400 as the public booking; a pair that does not change is left alone. On every test dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addService, bookableCompany, type BookableCompany } from '../../testing/booking-fixtures.ts';

/** Each test books on its own day, so no two hold one employee at once. */
const at = (day: number, hh = '10') => `2027-03-${String(day).padStart(2, '0')}T${hh}:00:00.000Z`;
const NOT_COLOUR = 'This employee does not perform Colour';

describe.each(testDialects())('service assignments in staff bookings and changes on %s', (dialect) => {
  let t: TestServer;
  let c: BookableCompany;
  let colourId: number;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    c = await bookableCompany(t, { name: 'Assigned Salon', capacity: 5 });
    colourId = await addService(t, c.admin.token, { name: 'Colour', duration_minutes: 30, available_slots: 5 });
    // Colour: the employee only. Haircut: nobody listed, so every staff member.
    const res = await t.call('PUT', `/service-types/${colourId}`, { token: c.admin.token, body: { employee_ids: [c.employee.id] } });
    expect(res.status, res.text).toBe(200);
  });
  afterAll(async () => t?.close());

  const create = (day: number, body: Record<string, unknown>) =>
    t.call('POST', '/appointments', {
      token: c.admin.token,
      body: { company_id: c.companyId, user_id: c.customer.id, start_time: at(day), ...body },
    });
  const change = (id: number, body: Record<string, unknown>) => t.call('PUT', `/appointments/${id}`, { token: c.admin.token, body });
  const read = async (id: number) => (await t.call('GET', `/appointments/${id}`, { token: c.admin.token })).body;

  it('a staff booking of a service with someone who does not perform it answers 400 on employee_id', async () => {
    const res = await create(1, { service_type_ids: [colourId], employee_id: c.admin.id });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: NOT_COLOUR, code: 'validation', details: [{ path: 'employee_id', message: NOT_COLOUR }] });
    const ok = await create(1, { service_type_ids: [colourId], employee_id: c.employee.id });
    expect(ok.status, ok.text).toBe(201);
  });

  it('a change to an employee who does not perform a service answers the same 400 and changes nothing', async () => {
    const made = await create(2, { service_type_ids: [c.serviceId, colourId], employee_id: c.employee.id });
    expect(made.status, made.text).toBe(201);
    const before = await read(made.body.id);

    const res = await change(made.body.id, { employee_id: c.admin.id });
    expect(res.status, res.text).toBe(400);
    const fromPost = await create(2, { service_type_ids: [colourId], employee_id: c.admin.id });
    expect(res.body).toEqual(fromPost.body);
    expect(await read(made.body.id)).toEqual(before);

    // Moving it to someone who performs both, or to nobody, is fine.
    const manager = await t.call('PUT', `/service-types/${colourId}`, {
      token: c.admin.token,
      body: { employee_ids: [c.employee.id, c.manager.id] },
    });
    expect(manager.status, manager.text).toBe(200);
    const moved = await change(made.body.id, { employee_id: c.manager.id });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.employee_id).toBe(c.manager.id);
    const nobody = await change(made.body.id, { employee_id: null });
    expect(nobody.status, nobody.text).toBe(200);
    expect(nobody.body.employee_id).toBeNull();
    await t.call('PUT', `/service-types/${colourId}`, { token: c.admin.token, body: { employee_ids: [c.employee.id] } });
  });

  it('adding a service the employee does not perform answers 400; adding one they do is fine', async () => {
    const made = await create(3, { service_type_ids: [c.serviceId], employee_id: c.admin.id });
    expect(made.status, made.text).toBe(201);
    const res = await change(made.body.id, { service_type_ids: [c.serviceId, colourId] });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: NOT_COLOUR, code: 'validation', details: [{ path: 'employee_id' }] });
    expect((await read(made.body.id)).service_types.map((s: { id: number }) => s.id)).toEqual([c.serviceId]);

    // The same change with the employee who performs Colour, in one request.
    const both = await change(made.body.id, { service_type_ids: [c.serviceId, colourId], employee_id: c.employee.id });
    expect(both.status, both.text).toBe(200);
    expect(both.body.service_types.map((s: { id: number }) => s.id).sort()).toEqual([c.serviceId, colourId].sort());
  });

  it('an unchanged pair is left alone: notes, times and the whole object sent back still save after the assignments change', async () => {
    const made = await create(4, { service_type_ids: [colourId], employee_id: c.employee.id });
    expect(made.status, made.text).toBe(201);
    // Colour is now the manager's only; the appointment keeps the employee it was made with.
    await t.call('PUT', `/service-types/${colourId}`, { token: c.admin.token, body: { employee_ids: [c.manager.id] } });
    try {
      const notes = await change(made.body.id, { description: 'Bring the swatch' });
      expect(notes.status, notes.text).toBe(200);
      const later = await change(made.body.id, { start_time: at(4, '11'), end_time: `${at(4, '11').slice(0, 14)}30:00.000Z` });
      expect(later.status, later.text).toBe(200);
      const echoed = await change(made.body.id, { employee_id: c.employee.id, service_type_ids: [colourId], description: 'Same pair' });
      expect(echoed.status, echoed.text).toBe(200);
      // Another employee who does not perform it is a new pair, refused like a booking.
      const toAdmin = await change(made.body.id, { employee_id: c.admin.id });
      expect(toAdmin.status).toBe(400);
    } finally {
      await t.call('PUT', `/service-types/${colourId}`, { token: c.admin.token, body: { employee_ids: [c.employee.id] } });
    }
  });
});
