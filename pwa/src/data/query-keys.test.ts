// The key factories: one spelling per resource, every key under its resource's prefix, so a
// write that stores or invalidates through them reaches every screen reading the same data.
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { companyByRefQuery, companyKeys, companyQuery, publicCompaniesQuery } from './companies.ts';
import { appointmentKeys, appointmentsQuery } from './appointments.ts';
import { serviceTypeKeys, serviceTypesQuery } from './service-types.ts';
import { customersQuery, employeesQuery, staffQuery, userKeys, userQuery, usersQuery } from './users.ts';
import { companyDurationDefaultQuery, companyDurationOptionsQuery, durationKeys, durationOptionsQuery } from './durations.ts';
import { companyHoursQuery, operatingHoursKeys, workHoursQuery } from './operating-hours.ts';
import { availabilityKeys, availableDatesQuery, availableSlotsQuery } from './availability.ts';
import { adminCompaniesQuery, adminKeys, adminStatsQuery, adminUsersQuery, emailExportQuery } from './admin.ts';

const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) => expect(key.slice(0, prefix.length)).toEqual([...prefix]);

describe('query keys', () => {
  it('reads a company by id under one key, whichever screen asks', () => {
    expect(companyQuery(7).queryKey).toEqual(companyKeys.detail(7));
    expect(companyByRefQuery({ by: 'id', id: 7 }).queryKey).toEqual(companyKeys.detail(7));
    expect(companyByRefQuery({ by: 'slug', slug: 'demo' }).queryKey).toEqual(companyKeys.bySlug('demo'));
  });

  it('lets a saved company reach every reader of that key at once', () => {
    const client = new QueryClient();
    client.setQueryData(companyQuery(7).queryKey, { id: 7, timezone: 'America/New_York' } as never);
    client.setQueryData(companyKeys.detail(7), { id: 7, timezone: 'Europe/Berlin' } as never);
    expect(client.getQueryData(companyByRefQuery({ by: 'id', id: 7 }).queryKey)).toMatchObject({ timezone: 'Europe/Berlin' });
  });

  it('keeps every key under its resource prefix', () => {
    const range = { start: '2026-11-24', end: '2026-11-30' };
    const cases: [readonly unknown[], readonly unknown[]][] = [
      [companyQuery(1).queryKey, companyKeys.all],
      [publicCompaniesQuery().queryKey, companyKeys.all],
      [companyByRefQuery({ by: 'slug', slug: 'x' }).queryKey, companyKeys.all],
      [appointmentsQuery(range).queryKey, appointmentKeys.all],
      [serviceTypesQuery(1).queryKey, serviceTypeKeys.all],
      [usersQuery(1).queryKey, userKeys.all],
      [staffQuery(1).queryKey, userKeys.all],
      [customersQuery(1).queryKey, userKeys.all],
      [userQuery(1).queryKey, userKeys.all],
      [employeesQuery(1).queryKey, userKeys.all],
      [durationOptionsQuery().queryKey, durationKeys.all],
      [companyDurationOptionsQuery(1).queryKey, durationKeys.all],
      [companyDurationDefaultQuery(1).queryKey, durationKeys.all],
      [companyHoursQuery(1).queryKey, operatingHoursKeys.all],
      [workHoursQuery(1, 2).queryKey, operatingHoursKeys.all],
      [availableSlotsQuery({ company_id: 1, service_type_id: 2, date: '2026-11-24' }).queryKey, availabilityKeys.all],
      [availableDatesQuery({ company_id: 1, service_type_id: 2 }).queryKey, availabilityKeys.all],
      [adminStatsQuery().queryKey, adminKeys.all],
      [adminCompaniesQuery().queryKey, adminKeys.all],
      [adminUsersQuery().queryKey, adminKeys.all],
      [emailExportQuery({ role: '', activeOnly: false }).queryKey, adminKeys.all],
    ];
    for (const [key, prefix] of cases) startsWith(key, prefix);
  });

  it('shares the staff list with the directory (the same request, filtered on screen)', () => {
    expect(staffQuery(3).queryKey).toEqual(usersQuery(3).queryKey);
    expect(customersQuery(3).queryKey).not.toEqual(usersQuery(3).queryKey);
  });

  it('gives the calendar and the dashboard the same list for the same days', () => {
    expect(appointmentsQuery({ start: '2026-11-24', end: '2026-12-01' }).queryKey).toEqual(
      appointmentKeys.list({ start: '2026-11-24', end: '2026-12-01' }),
    );
  });
});
