// The one place a service type row becomes what the API shows, with the hidden price withheld from outsiders.
import type { ServiceTypeRow } from '@bookwell/db';
import type { ServiceTypeDto } from './service-type.schema.ts';

/** `internal`: the caller is staff of the service's company (or global_admin) and may see a hidden price. */
/** `employeeIds`: the service_employees of the row (empty: every staff member). */
export function toServiceTypeDto(row: ServiceTypeRow, internal: boolean, employeeIds: number[]): ServiceTypeDto {
  const hidePrice = row.hide_price === 1;
  return {
    id: row.id,
    name: row.name,
    company_id: row.company_id,
    duration_minutes: row.duration_minutes,
    price: hidePrice && !internal ? null : row.price,
    hide_price: hidePrice,
    available_slots: row.available_slots,
    archived_at: row.archived_at,
    buffer_before_minutes: row.buffer_before_minutes,
    buffer_after_minutes: row.buffer_after_minutes,
    employee_ids: employeeIds,
  };
}
