// The appointment form's fields, one component per question the form asks. They show values and
// report changes; the state and its rules live in hooks/use-appointment-form.ts.
import { useMemo, type Ref } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import type { Appointment, AppointmentStatus } from '../../../data/appointments.ts';
import type { ServiceType } from '../../../data/service-types.ts';
import type { User } from '../../../data/users.ts';
import { formatDate, formatWallTime, type WallTime } from '../../../lib/zoned-time.ts';
import { customerLabel } from '../../../components/appointment-text.ts';
import { durationOptions, formatMinutes, type DurationChoice } from '../durations.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

type Option = { value: string; label: string };

/** What every field takes: its control's id, its value and where a change goes. */
interface FieldProps<V = string> {
  id: string;
  value: V;
  onChange: (value: V) => void;
  error?: string;
}

function Options({ options }: { options: Option[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ));
}

export function CompanyField({ id, name }: { id: string; name: string }) {
  return (
    <FormField label="Company" id={id}>
      <input className="input" value={name} readOnly aria-readonly="true" />
    </FormField>
  );
}

/** The customers, plus the appointment's own customer when the list no longer holds them (archived). */
export function CustomerField({
  id,
  selectRef,
  value,
  error,
  customers,
  appointment,
  onChange,
}: FieldProps & { selectRef: Ref<HTMLSelectElement>; customers: User[]; appointment?: Appointment }) {
  const options = useMemo(() => {
    const list = customers.map((c) => ({ value: String(c.id), label: `${c.name} (${c.email})` }));
    if (value && !list.some((o) => o.value === value)) {
      const a = appointment;
      const label =
        a && String(a.user_id) === value ? `${customerLabel(a)}${a.customer_email ? ` (${a.customer_email})` : ''}` : `Customer #${value}`;
      list.unshift({ value, label });
    }
    return list;
  }, [customers, value, appointment]);

  return (
    <FormField
      label="Customer"
      labelClassName="is-required"
      id={id}
      error={error}
      hint={customers.length === 0 ? 'This company has no customers yet: add one in the Directory.' : undefined}
    >
      <select ref={selectRef} className="select" value={value} required onChange={(e) => onChange(e.target.value)}>
        <option value="">Select a customer</option>
        <Options options={options} />
      </select>
    </FormField>
  );
}

/** The staff, plus the appointment's own employee when the list no longer holds them. */
export function EmployeeField({ id, value, staff, appointment, onChange }: FieldProps & { staff: User[]; appointment?: Appointment }) {
  const options = useMemo(() => {
    const list = staff.map((s) => ({ value: String(s.id), label: s.name }));
    if (value && !list.some((o) => o.value === value)) {
      list.push({ value, label: appointment?.employee_name || `Staff #${value}` });
    }
    return list;
  }, [staff, value, appointment]);

  return (
    <FormField label="Employee (optional)" id={id}>
      <select className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">No specific employee</option>
        <Options options={options} />
      </select>
    </FormField>
  );
}

/** Start date or start time: a required input described by the time zone hint. */
export function StartField({ id, kind, value, error, zoneHintId, onChange }: FieldProps & { kind: 'date' | 'time'; zoneHintId: string }) {
  return (
    <FormField
      label={kind === 'date' ? 'Start date' : 'Start time'}
      labelClassName="is-required"
      id={id}
      error={error}
      describedBy={zoneHintId}
    >
      <input type={kind} className="input" value={value} required onChange={(e) => onChange(e.target.value)} />
    </FormField>
  );
}

export function DurationField({ id, value, error, choices, onChange }: FieldProps & { choices: DurationChoice[] }) {
  const options = useMemo(() => durationOptions(choices, value), [choices, value]);
  return (
    <FormField label="Duration" labelClassName="is-required" id={id} error={error}>
      <select className="select" value={value} required onChange={(e) => onChange(e.target.value)}>
        <option value="">Select a duration</option>
        <Options options={options} />
      </select>
    </FormField>
  );
}

/** The computed end (read only) and the sentence naming the zone and the whole span. */
export function EndFields({
  ids,
  date,
  time,
  end,
  zone,
}: {
  ids: { endDate: string; endTime: string; zoneHint: string };
  date: string;
  time: string;
  end: WallTime | null;
  zone: string;
}) {
  return (
    <>
      <div className="appt-grid">
        <FormField label="End date" id={ids.endDate}>
          <input type="date" className="input" value={end?.date ?? ''} readOnly aria-readonly="true" tabIndex={-1} />
        </FormField>
        <FormField label="End time" id={ids.endTime}>
          <input type="time" className="input" value={end?.time ?? ''} readOnly aria-readonly="true" tabIndex={-1} />
        </FormField>
      </div>
      <p id={ids.zoneHint} className="appt-zone-hint">
        Times are in the company&apos;s time zone ({zone.replace(/_/g, ' ')}).
        {end && date && time && (
          <>
            {' '}
            {formatDate(date)}, {formatWallTime(time)} to {end.date !== date ? `${formatDate(end.date)}, ` : ''}
            {formatWallTime(end.time)}.
          </>
        )}
      </p>
    </>
  );
}

export function StatusField({ id, value, onChange }: FieldProps<AppointmentStatus>) {
  return (
    <FormField
      label="Status"
      id={id}
      className="appt-status"
      hint="Cancelling keeps the appointment on record, frees its time and tells the customer."
    >
      <select className="select" value={value} onChange={(e) => onChange(e.target.value as AppointmentStatus)}>
        <option value="booked">Booked</option>
        <option value="cancelled">Cancelled</option>
      </select>
    </FormField>
  );
}

export function DescriptionField({ id, value, onChange }: FieldProps) {
  return (
    <FormField label="Description" id={id}>
      <textarea className="textarea" rows={3} value={value} onChange={(e) => onChange(e.target.value)} />
    </FormField>
  );
}

/** The company's services as checkboxes, plus any the appointment has that are no longer offered. */
/** A service checkbox row: one the company offers, or one the appointment kept that is no longer offered. */
type ServiceRow = Pick<ServiceType, 'id' | 'name' | 'duration_minutes' | 'price' | 'hide_price'> & { archived?: boolean };

export function ServicesField({
  services,
  kept,
  checkedIds,
  onToggle,
}: {
  services: ServiceType[];
  /** The appointment's own services (archived ones are shown as 'no longer offered'). */
  kept: { id: number; name: string }[];
  checkedIds: number[];
  onToggle: (id: number, checked: boolean) => void;
}) {
  const rows = useMemo(() => {
    const list: ServiceRow[] = [...services];
    for (const s of kept) {
      if (!list.some((r) => r.id === s.id))
        list.push({ id: s.id, name: s.name, duration_minutes: 0, price: null, hide_price: true, archived: true });
    }
    return list;
  }, [services, kept]);

  return (
    <fieldset className="appt-services">
      <legend className="field-label">Services</legend>
      {rows.length === 0 ? (
        <p className="appt-empty">No services available for this company.</p>
      ) : (
        <ul className="appt-service-list">
          {rows.map((s) => {
            const showPrice = !s.hide_price && s.price !== null && s.price !== undefined;
            const checked = checkedIds.includes(s.id);
            return (
              <li key={s.id}>
                <label className={`appt-service${checked ? ' is-checked' : ''}`}>
                  <input type="checkbox" checked={checked} onChange={(e) => onToggle(s.id, e.target.checked)} />
                  <span className="appt-service-name">{s.name}</span>
                  <span className="appt-service-meta">
                    {s.archived ? (
                      'no longer offered'
                    ) : (
                      <>
                        {formatMinutes(s.duration_minutes)}
                        {showPrice && <span className="appt-service-price">{money.format(Number(s.price))}</span>}
                      </>
                    )}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
