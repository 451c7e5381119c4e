import { describe, expect, it } from 'vitest';
import { appointmentFixture } from '../../data/appointment-fixture.ts';
import {
  FIELD_ERRORS,
  appointmentInput,
  createRequest,
  editRequest,
  initialValues,
  missingFields,
  valuesFromAppointment,
} from './appointment-values.ts';

const zone = 'America/New_York';
const choices = [
  { id: 1, minutes: 15 },
  { id: 2, minutes: 30 },
  { id: 3, minutes: 60 },
];

describe('initialValues', () => {
  it('opens a new appointment with the prefill and the preferred length', () => {
    const v = initialValues({ customerId: 7, date: '2026-03-02', time: '09:30' }, zone, choices, 60);
    expect(v).toEqual({
      customerId: '7',
      employeeId: '',
      date: '2026-03-02',
      time: '09:30',
      duration: '3',
      description: '',
      serviceIds: [],
      status: 'booked',
    });
    expect(initialValues(undefined, zone, choices, null)).toMatchObject({ customerId: '', date: '', time: '', duration: '2' });
  });
  it("opens an existing appointment at the company's wall time", () => {
    const a = appointmentFixture({
      employee_id: 4,
      description: 'Quiet chair',
      status: 'cancelled',
      service_types: [{ id: 9, name: 'Haircut' }],
    });
    const v = initialValues({ appointment: a }, zone, choices, 60);
    expect(v).toEqual(valuesFromAppointment(a, zone, choices));
    expect(v).toEqual({
      customerId: '7',
      employeeId: '4',
      date: '2026-03-02',
      time: '10:00',
      duration: '2',
      description: 'Quiet chair',
      serviceIds: [9],
      status: 'cancelled',
    });
  });
});

describe('missingFields', () => {
  const filled = initialValues({ customerId: 7, date: '2026-03-02', time: '09:30' }, zone, choices, 30);
  it('passes filled values', () => {
    expect(missingFields(filled, 30)).toEqual({});
  });
  it('names each empty or malformed required field with its message', () => {
    expect(missingFields({ ...filled, customerId: '', date: '2026-3-2', time: '' }, null)).toEqual(FIELD_ERRORS);
  });
});

describe('the request', () => {
  const values = {
    ...initialValues({ customerId: 7, date: '2026-03-08', time: '01:30' }, zone, choices, 60),
    description: '  ',
    serviceIds: [9],
  };
  it('turns the wall time into instants across a daylight-saving change', () => {
    // 8 March 2026: New York moves from -05:00 to -04:00 at 2:00, inside this hour.
    expect(appointmentInput(values, 1, zone, 60)).toEqual({
      company_id: 1,
      user_id: 7,
      employee_id: null,
      start_time: '2026-03-08T06:30:00.000Z',
      end_time: '2026-03-08T07:30:00.000Z',
      description: null,
      appointment_duration_option_id: 3,
      service_type_ids: [9],
    });
    expect(appointmentInput({ ...values, duration: 'm:50' }, 1, zone, 50).appointment_duration_option_id).toBeNull();
  });
  it('leaves an empty employee and length out of a new appointment', () => {
    const input = appointmentInput({ ...values, duration: 'm:50' }, 1, zone, 50);
    expect(createRequest(input)).not.toHaveProperty('employee_id');
    expect(createRequest(input)).not.toHaveProperty('appointment_duration_option_id');
    expect(createRequest({ ...input, employee_id: 4 }).employee_id).toBe(4);
  });
});

describe("an edit's request", () => {
  const a = appointmentFixture();
  const shown = valuesFromAppointment(a, zone, choices);
  const minutes = (new Date(a.end_time).getTime() - new Date(a.start_time).getTime()) / 60_000;
  const { company_id: _c, ...before } = appointmentInput(shown, a.company_id, zone, minutes);
  const edit = (v: typeof shown) => {
    const { company_id: _n, ...now } = appointmentInput(v, a.company_id, zone, minutes);
    return editRequest({ ...now, status: v.status }, { ...before, status: shown.status });
  };
  it("sends only what the user changed, so another person's change to another field stays", () => {
    expect(edit({ ...shown, description: 'Bring the blue dye' })).toEqual({ description: 'Bring the blue dye' });
    const moved = edit({ ...shown, time: '15:00' });
    expect(Object.keys(moved).sort()).toEqual(['end_time', 'start_time']);
    expect(edit({ ...shown, status: 'cancelled' })).toEqual({ status: 'cancelled' });
  });
  it('sends the status alone when nothing changed', () => {
    expect(edit(shown)).toEqual({ status: shown.status });
  });
});
