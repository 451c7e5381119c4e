// The appointment modal (SPEC.md section 2, "Appointment modal (create or edit)"; sections 5 and 8).
//
// Cross-feature use: the Directory opens this modal with a customer prefilled
// (`initial.customerId`). That is the one import another feature may make from calendar/.
//
// Writes are checked: POST carries an Idempotency-Key (one per submission attempt, reused when
// the same body is sent again after no answer came), PUT and DELETE carry If-Match with the
// version the user saw. A 409 says the time is taken; a 412 shows what changed elsewhere and
// lets the user load it or keep their own changes (DECISIONS.md section 5).
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal } from '../../../components/modal.tsx';
import { Alert } from '../../../components/alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { newIdempotencyKey } from '../../../lib/api-client.ts';
import { errorMessage } from '../../../lib/api-errors.ts';
import type { ServiceType, User } from '../../../lib/api-types.ts';
import { companyQuery } from '../api/get-company.ts';
import { customersQuery, staffQuery } from '../api/get-users.ts';
import { serviceTypesQuery } from '../api/get-service-types.ts';
import { companyDurationOptionsQuery } from '../api/get-company-duration-options.ts';
import { appointmentDurationOptionsQuery } from '../api/get-appointment-duration-options.ts';
import { companyDurationDefaultQuery } from '../api/get-company-duration-default.ts';
import { APPOINTMENTS_KEY } from '../api/get-appointments.ts';
import { createAppointment, type AppointmentInput } from '../api/create-appointment.ts';
import { updateAppointment } from '../api/update-appointment.ts';
import { deleteAppointment } from '../api/delete-appointment.ts';
import { describeWriteError, type WriteProblem } from '../appointment-errors.ts';
import { customerLabel } from '../appointment-text.ts';
import {
  addMinutesWall,
  browserZone,
  formatDate,
  formatWallTime,
  isKnownZone,
  toWallTime,
  todayIn,
  zonedTimeToUtc,
} from '../../../lib/zoned-time.ts';
import type { AppointmentStatus, CalendarAppointment, DurationChoice } from '../types.ts';
import './appointment-modal.css';

export const CLOSE_AFTER_SUCCESS_MS = 1500;

export interface AppointmentModalInitial {
  /** Prefill the customer (Directory's Schedule Appointment). */
  customerId?: number;
  /** Prefill the start date, 'YYYY-MM-DD' in the company's zone (a clicked day). */
  date?: string;
  /** Prefill the start time, 'HH:MM' (a clicked slot in week or day view). */
  time?: string;
  /** Edit this appointment instead of creating one. */
  appointment?: CalendarAppointment;
}

export interface AppointmentModalProps {
  open: boolean;
  onClose: () => void;
  initial?: AppointmentModalInitial;
  /** Called after a successful create, update or delete (before the modal closes). */
  onSaved?: (result: { action: 'created' | 'updated' | 'deleted'; appointment: CalendarAppointment | null }) => void;
}

export function AppointmentModal({ open, onClose, initial, onSaved }: AppointmentModalProps) {
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const editing = !!initial?.appointment;
  const [footer, setFooter] = useState<FooterState>({ mode: 'buttons', disabled: true });

  return (
    <Modal
      open={open}
      onClose={onClose}
      busy={busy}
      size="lg"
      title={editing ? 'Edit Appointment' : 'Create Appointment'}
      className="appointment-modal"
      footer={<ModalFooter formId={formId} editing={editing} state={footer} onCancel={onClose} />}
    >
      <AppointmentForm
        formId={formId}
        initial={initial}
        onClose={onClose}
        onSaved={onSaved}
        onBusyChange={setBusy}
        onFooterChange={setFooter}
      />
    </Modal>
  );
}

// ---------- Footer: the buttons live outside the scrolling body, tied to the form by id ----------

type FooterState =
  | { mode: 'buttons'; disabled: boolean; saving?: boolean; deleting?: boolean; onDelete?: () => void }
  | { mode: 'confirm-delete'; onConfirm: () => void; onKeep: () => void; deleting: boolean };

function ModalFooter({
  formId,
  editing,
  state,
  onCancel,
}: {
  formId: string;
  editing: boolean;
  state: FooterState;
  onCancel: () => void;
}) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (state.mode === 'confirm-delete') keepRef.current?.focus();
  }, [state.mode]);

  if (state.mode === 'confirm-delete') {
    return (
      <div className="appt-confirm" role="group" aria-labelledby={`${formId}-confirm`}>
        <p id={`${formId}-confirm`} className="appt-confirm-text">
          Delete this appointment? This cannot be undone.
        </p>
        <div className="appt-footer-buttons">
          <button ref={keepRef} type="button" className="btn btn-secondary" onClick={state.onKeep} disabled={state.deleting}>
            Keep Appointment
          </button>
          <button type="button" className="btn btn-danger" onClick={state.onConfirm} disabled={state.deleting}>
            {state.deleting ? 'Deleting...' : 'Yes, Delete'}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="appt-footer-buttons">
      {editing && state.onDelete && (
        <button
          type="button"
          className="btn btn-danger-outline appt-delete"
          onClick={state.onDelete}
          disabled={state.disabled}
        >
          Delete Appointment
        </button>
      )}
      <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={state.saving || state.deleting}>
        Cancel
      </button>
      <button type="submit" form={formId} className="btn btn-primary" disabled={state.disabled}>
        {state.saving ? 'Saving...' : editing ? 'Update Appointment' : 'Create Appointment'}
      </button>
    </div>
  );
}

// ---------- The form ----------

interface Fields {
  customerId: string;
  employeeId: string;
  date: string;
  time: string;
  /** A DurationChoice id, or 'm:<minutes>' for an appointment whose length no option matches. */
  duration: string;
  description: string;
  serviceIds: number[];
  status: AppointmentStatus;
}

type FieldName = 'customerId' | 'date' | 'time' | 'duration';

const FIELD_ERRORS: Record<FieldName, string> = {
  customerId: 'Please select a customer.',
  date: 'Please enter a start date.',
  time: 'Please enter a start time.',
  duration: 'Please select a duration.',
};

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

function minutesBetween(a: string, b: string): number {
  return Math.round((new Date(b).getTime() - new Date(a).getTime()) / 60_000);
}

function durationMinutes(value: string, choices: DurationChoice[]): number | null {
  if (!value) return null;
  if (value.startsWith('m:')) return Number(value.slice(2)) || null;
  return choices.find((c) => String(c.id) === value)?.minutes ?? null;
}

function durationValueFor(a: CalendarAppointment, choices: DurationChoice[]): string {
  const minutes = minutesBetween(a.start_time, a.end_time);
  const byId = choices.find((c) => c.id === a.appointment_duration_option_id);
  if (byId && byId.minutes === minutes) return String(byId.id);
  const byMinutes = choices.find((c) => c.minutes === minutes);
  if (byMinutes) return String(byMinutes.id);
  return `m:${minutes}`;
}

function fieldsFromAppointment(a: CalendarAppointment, zone: string, choices: DurationChoice[]): Fields {
  const start = toWallTime(a.start_time, zone);
  return {
    customerId: a.user_id != null ? String(a.user_id) : '',
    employeeId: a.employee_id != null ? String(a.employee_id) : '',
    date: start.date,
    time: start.time,
    duration: durationValueFor(a, choices),
    description: a.description ?? '',
    serviceIds: (a.service_types ?? []).map((s) => s.id),
    status: a.status ?? 'booked',
  };
}

/** Smallest offered length that fits `minutes`, else the longest. */
function choiceFitting(minutes: number, choices: DurationChoice[]): DurationChoice | undefined {
  return choices.find((c) => c.minutes >= minutes) ?? choices[choices.length - 1];
}

interface FormProps {
  formId: string;
  initial?: AppointmentModalInitial;
  onClose: () => void;
  onSaved?: AppointmentModalProps['onSaved'];
  onBusyChange: (busy: boolean) => void;
  onFooterChange: (state: FooterState) => void;
}

function AppointmentForm({ formId, initial, onClose, onSaved, onBusyChange, onFooterChange }: FormProps) {
  const { user } = useAuth();
  const companyId = user?.company_id ?? null;

  const company = useQuery(companyQuery(companyId));
  // A customer the Directory has just added must be in the list: always refetch on open.
  const customers = useQuery({ ...customersQuery(companyId), staleTime: 0 });
  const staff = useQuery(staffQuery(companyId));
  const services = useQuery(serviceTypesQuery(companyId));
  const companyDurations = useQuery(companyDurationOptionsQuery(companyId));
  const catalogue = useQuery(appointmentDurationOptionsQuery());
  const durationDefault = useQuery(companyDurationDefaultQuery(companyId));

  const queries = [company, customers, staff, services, companyDurations, catalogue, durationDefault];
  const failed = queries.find((q) => q.isError);
  const loading = queries.some((q) => q.isPending);

  useEffect(() => {
    if (loading || failed) onFooterChange({ mode: 'buttons', disabled: true });
  }, [loading, failed, onFooterChange]);

  if (companyId === null) {
    return <Alert tone="error">Failed to load form data: your account does not belong to a company.</Alert>;
  }
  if (failed) {
    return (
      <div className="appt-load-error">
        <Alert tone="error">Failed to load form data: {errorMessage(failed.error)}</Alert>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => queries.filter((q) => q.isError).forEach((q) => void q.refetch())}
        >
          Try Again
        </button>
      </div>
    );
  }
  if (loading) return <Loading label="Loading form..." />;

  const zone = isKnownZone(company.data!.timezone) ? company.data!.timezone : browserZone();

  // The lengths this company offers, with their minutes from the global catalogue.
  const catalogueById = new Map((catalogue.data ?? []).map((o) => [o.id, o.duration_minutes]));
  let choices: DurationChoice[] = (companyDurations.data ?? [])
    .map((row) => ({ id: row.appointment_duration_option_id, minutes: row.duration_minutes ?? catalogueById.get(row.appointment_duration_option_id) ?? 0 }))
    .filter((c) => c.minutes > 0);
  if (choices.length === 0) choices = (catalogue.data ?? []).map((o) => ({ id: o.id, minutes: o.duration_minutes }));
  choices = [...new Map(choices.map((c) => [c.id, c])).values()].sort((a, b) => a.minutes - b.minutes);

  return (
    <AppointmentFields
      formId={formId}
      initial={initial}
      companyId={companyId}
      companyName={company.data!.name}
      zone={zone}
      customers={customers.data ?? []}
      staff={staff.data ?? []}
      services={services.data ?? []}
      choices={choices}
      defaultMinutes={durationDefault.data?.default_appointment_duration ?? null}
      onClose={onClose}
      onSaved={onSaved}
      onBusyChange={onBusyChange}
      onFooterChange={onFooterChange}
    />
  );
}

interface FieldsProps extends FormProps {
  companyId: number;
  companyName: string;
  zone: string;
  customers: User[];
  staff: User[];
  services: ServiceType[];
  choices: DurationChoice[];
  defaultMinutes: number | null;
}

type Phase = 'editing' | 'saving' | 'deleting' | 'done';

function AppointmentFields({
  formId,
  initial,
  companyId,
  companyName,
  zone,
  customers,
  staff,
  services,
  choices,
  defaultMinutes,
  onClose,
  onSaved,
  onBusyChange,
  onFooterChange,
}: FieldsProps) {
  const queryClient = useQueryClient();
  const ids = {
    customer: useId(),
    employee: useId(),
    date: useId(),
    time: useId(),
    duration: useId(),
    endDate: useId(),
    endTime: useId(),
    description: useId(),
    status: useId(),
    company: useId(),
    zoneHint: useId(),
  };

  const [base, setBase] = useState<CalendarAppointment | null>(initial?.appointment ?? null);
  const editing = base !== null || !!initial?.appointment;

  const [fields, setFields] = useState<Fields>(() => {
    if (initial?.appointment) return fieldsFromAppointment(initial.appointment, zone, choices);
    const preferred =
      (defaultMinutes !== null && (choices.find((c) => c.minutes === defaultMinutes) ?? choices.find((c) => c.id === defaultMinutes))) ||
      choices.find((c) => c.minutes === 30) ||
      choices[0];
    return {
      customerId: initial?.customerId != null ? String(initial.customerId) : '',
      employeeId: '',
      date: initial?.date ?? todayIn(zone),
      time: initial?.time ?? '',
      duration: preferred ? String(preferred.id) : '',
      description: '',
      serviceIds: [],
      status: 'booked',
    };
  });
  const [durationTouched, setDurationTouched] = useState(editing);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [phase, setPhase] = useState<Phase>('editing');
  const [success, setSuccess] = useState<string | null>(null);
  const [problem, setProblem] = useState<WriteProblem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const attempt = useRef<{ key: string; body: string; reusable: boolean } | null>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  const problemRef = useRef<HTMLDivElement>(null);
  const firstFieldRef = useRef<HTMLSelectElement>(null);

  // The dialog opened while the form data loaded, so it holds the focus: hand it to the first field.
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || active.tagName === 'DIALOG') firstFieldRef.current?.focus();
  }, []);

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);
  useEffect(() => onBusyChange(phase === 'saving' || phase === 'deleting'), [phase, onBusyChange]);

  const minutes = durationMinutes(fields.duration, choices);
  const end = fields.date && /^\d{2}:\d{2}$/.test(fields.time) && minutes ? addMinutesWall(fields.date, fields.time, minutes, zone) : null;

  // Options for people or services the lists no longer hold (archived) but this appointment has.
  const customerOptions = useMemo(() => {
    const list = customers.map((c) => ({ value: String(c.id), label: `${c.name} (${c.email})` }));
    if (fields.customerId && !list.some((o) => o.value === fields.customerId)) {
      const a = initial?.appointment;
      const label =
        a && String(a.user_id) === fields.customerId
          ? `${customerLabel(a)}${a.customer_email ? ` (${a.customer_email})` : ''}`
          : `Customer #${fields.customerId}`;
      list.unshift({ value: fields.customerId, label });
    }
    return list;
  }, [customers, fields.customerId, initial?.appointment]);

  const employeeOptions = useMemo(() => {
    const list = staff.map((s) => ({ value: String(s.id), label: s.name }));
    if (fields.employeeId && !list.some((o) => o.value === fields.employeeId)) {
      const a = initial?.appointment;
      list.push({ value: fields.employeeId, label: a?.employee_name || `Staff #${fields.employeeId}` });
    }
    return list;
  }, [staff, fields.employeeId, initial?.appointment]);

  const serviceRows = useMemo(() => {
    const rows: (ServiceType & { archived?: boolean })[] = [...services];
    for (const s of base?.service_types ?? initial?.appointment?.service_types ?? []) {
      if (!rows.some((r) => r.id === s.id)) {
        rows.push({ id: s.id, name: s.name, company_id: companyId, duration_minutes: 0, price: null, hide_price: true, archived: true });
      }
    }
    return rows;
  }, [services, base, initial?.appointment, companyId]);

  const durationOptions = useMemo(() => {
    const opts = choices.map((c) => ({ value: String(c.id), label: `${c.minutes} minutes` }));
    if (fields.duration.startsWith('m:')) opts.push({ value: fields.duration, label: `${fields.duration.slice(2)} minutes` });
    return opts;
  }, [choices, fields.duration]);

  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => {
    setFields((f) => ({ ...f, [key]: value }));
    if (key in FIELD_ERRORS) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const toggleService = (id: number, checked: boolean) => {
    setFields((f) => {
      const serviceIds = checked ? [...f.serviceIds, id] : f.serviceIds.filter((x) => x !== id);
      let duration = f.duration;
      // Until the user picks a length, a new appointment's length follows the chosen services.
      if (!durationTouched && serviceIds.length > 0) {
        const total = serviceIds.reduce((sum, sid) => sum + (services.find((s) => s.id === sid)?.duration_minutes ?? 0), 0);
        const fit = total > 0 ? choiceFitting(total, choices) : undefined;
        if (fit) duration = String(fit.id);
      }
      return { ...f, serviceIds, duration };
    });
    setErrors((e) => ({ ...e, duration: undefined }));
  };

  const validate = (): boolean => {
    const next: Partial<Record<FieldName, string>> = {};
    if (!fields.customerId) next.customerId = FIELD_ERRORS.customerId;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(fields.date)) next.date = FIELD_ERRORS.date;
    if (!/^\d{2}:\d{2}$/.test(fields.time)) next.time = FIELD_ERRORS.time;
    if (!minutes) next.duration = FIELD_ERRORS.duration;
    setErrors(next);
    const first = (['customerId', 'date', 'time', 'duration'] as FieldName[]).find((k) => next[k]);
    if (first) {
      const id = { customerId: ids.customer, date: ids.date, time: ids.time, duration: ids.duration }[first];
      document.getElementById(id)?.focus();
      return false;
    }
    return true;
  };

  const finish = (message: string, action: 'created' | 'updated' | 'deleted', appointment: CalendarAppointment | null) => {
    setPhase('done');
    setSuccess(message);
    setProblem(null);
    void queryClient.invalidateQueries({ queryKey: APPOINTMENTS_KEY });
    onSaved?.({ action, appointment });
    closeTimer.current = window.setTimeout(onClose, CLOSE_AFTER_SUCCESS_MS);
  };

  const showProblem = (p: WriteProblem) => {
    setProblem(p);
    setPhase('editing');
    // Someone else's change or deletion: the calendar behind the modal should show it too.
    if (p.kind === 'changed' || p.kind === 'gone' || p.kind === 'slot_taken') {
      void queryClient.invalidateQueries({ queryKey: APPOINTMENTS_KEY });
    }
    requestAnimationFrame(() => problemRef.current?.focus());
  };

  /** One key per attempt; the same key again only when the same body is resent after no answer. */
  const keyFor = (body: string): string => {
    const last = attempt.current;
    if (last && last.reusable && last.body === body) return last.key;
    const key = newIdempotencyKey();
    attempt.current = { key, body, reusable: false };
    return key;
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (phase !== 'editing') return;
    setNotice(null);
    if (!validate() || !minutes) return;
    const start = zonedTimeToUtc(fields.date, fields.time, zone);
    const endInstant = new Date(start.getTime() + minutes * 60_000);
    const optionId = fields.duration.startsWith('m:') ? null : Number(fields.duration);
    const input: AppointmentInput = {
      company_id: companyId,
      user_id: Number(fields.customerId),
      employee_id: fields.employeeId ? Number(fields.employeeId) : null,
      start_time: start.toISOString(),
      end_time: endInstant.toISOString(),
      description: fields.description.trim() || null,
      appointment_duration_option_id: optionId,
      service_type_ids: fields.serviceIds,
    };
    setPhase('saving');
    setProblem(null);
    const body = JSON.stringify(base ? { ...input, status: fields.status, id: base.id, v: base.version } : input);
    const key = keyFor(body);
    try {
      if (base) {
        const { company_id: _c, ...changes } = input;
        const saved = await updateAppointment(base.id, base.version, { ...changes, status: fields.status }, key);
        finish('Appointment updated successfully!', 'updated', saved);
      } else {
        const saved = await createAppointment(input, key);
        finish('Appointment created successfully!', 'created', saved);
      }
    } catch (err) {
      const p = describeWriteError(err, 'Failed to save appointment');
      if (attempt.current) attempt.current.reusable = p.kind === 'other' && p.retryable;
      showProblem(p);
    }
  };

  const onDelete = async () => {
    if (!base) return;
    setPhase('deleting');
    setProblem(null);
    const key = keyFor(JSON.stringify({ delete: base.id, v: base.version }));
    try {
      await deleteAppointment(base.id, base.version, key);
      setConfirmingDelete(false);
      finish('Appointment deleted successfully!', 'deleted', null);
    } catch (err) {
      const p = describeWriteError(err, 'Failed to delete appointment');
      if (attempt.current) attempt.current.reusable = p.kind === 'other' && p.retryable;
      setConfirmingDelete(false);
      showProblem(p);
    }
  };

  // The footer (outside this component's DOM) follows the form's state.
  useEffect(() => {
    if (confirmingDelete) {
      onFooterChange({
        mode: 'confirm-delete',
        deleting: phase === 'deleting',
        onConfirm: () => void onDelete(),
        onKeep: () => setConfirmingDelete(false),
      });
    } else {
      onFooterChange({
        mode: 'buttons',
        disabled: phase !== 'editing',
        saving: phase === 'saving',
        deleting: phase === 'deleting',
        onDelete: base ? () => setConfirmingDelete(true) : undefined,
      });
    }
    // onDelete closes over base and phase, both listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [confirmingDelete, phase, base, onFooterChange]);

  const loadTheirs = (current: CalendarAppointment) => {
    setBase(current);
    setFields(fieldsFromAppointment(current, zone, choices));
    setProblem(null);
    setNotice('The latest version is loaded. Make your changes again if they are still needed.');
  };

  const keepMine = (current: CalendarAppointment) => {
    setBase(current);
    setProblem(null);
    setNotice('Your changes are kept. Press Update Appointment to save them over the latest version.');
  };

  const disabled = phase !== 'editing';
  const describedBy = (field: FieldName, extra?: string) =>
    [errors[field] ? `${formId}-${field}-error` : null, extra].filter(Boolean).join(' ') || undefined;

  return (
    <form id={formId} className="appt-form" noValidate onSubmit={onSubmit} aria-busy={phase === 'saving' || phase === 'deleting'}>
      {success && <Alert tone="success">{success}</Alert>}
      {notice && !success && (
        <Alert tone="info" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {problem && (
        <div ref={problemRef} tabIndex={-1} className="appt-problem">
          <Alert tone="error">
            <p className="appt-problem-title">{problem.message}</p>
            {problem.kind === 'changed' && problem.current && base && (
              <ChangeList mine={base} theirs={problem.current} zone={zone} customers={customers} staff={staff} />
            )}
          </Alert>
          {problem.kind === 'changed' && problem.current && (
            <div className="appt-problem-actions">
              <button type="button" className="btn btn-primary" onClick={() => loadTheirs(problem.current!)}>
                Load Latest Version
              </button>
              <button type="button" className="btn btn-secondary" onClick={() => keepMine(problem.current!)}>
                Keep My Changes
              </button>
            </div>
          )}
          {problem.kind === 'gone' && (
            <div className="appt-problem-actions">
              <button type="button" className="btn btn-secondary" onClick={onClose}>
                Close
              </button>
            </div>
          )}
        </div>
      )}

      <fieldset disabled={disabled} className="appt-fieldset">
        <legend className="visually-hidden">{editing ? 'Edit appointment' : 'New appointment'}</legend>

        <div className="field">
          <label htmlFor={ids.company}>Company</label>
          <input id={ids.company} className="input" value={companyName} readOnly aria-readonly="true" />
        </div>

        <div className="appt-grid">
          <div className="field">
            <label htmlFor={ids.customer} className="is-required">
              Customer
            </label>
            <select
              ref={firstFieldRef}
              id={ids.customer}
              className="select"
              value={fields.customerId}
              required
              aria-invalid={!!errors.customerId || undefined}
              aria-describedby={describedBy('customerId')}
              onChange={(e) => set('customerId', e.target.value)}
            >
              <option value="">Select a customer</option>
              {customerOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            {errors.customerId && (
              <span id={`${formId}-customerId-error`} className="field-error">
                {errors.customerId}
              </span>
            )}
            {customers.length === 0 && <span className="hint">This company has no customers yet: add one in the Directory.</span>}
          </div>

          <div className="field">
            <label htmlFor={ids.employee}>Employee (optional)</label>
            <select id={ids.employee} className="select" value={fields.employeeId} onChange={(e) => set('employeeId', e.target.value)}>
              <option value="">No specific employee</option>
              {employeeOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        </div>

        <div className="appt-grid appt-grid-3">
          <div className="field">
            <label htmlFor={ids.date} className="is-required">
              Start date
            </label>
            <input
              id={ids.date}
              type="date"
              className="input"
              value={fields.date}
              required
              aria-invalid={!!errors.date || undefined}
              aria-describedby={describedBy('date', ids.zoneHint)}
              onChange={(e) => set('date', e.target.value)}
            />
            {errors.date && (
              <span id={`${formId}-date-error`} className="field-error">
                {errors.date}
              </span>
            )}
          </div>
          <div className="field">
            <label htmlFor={ids.time} className="is-required">
              Start time
            </label>
            <input
              id={ids.time}
              type="time"
              className="input"
              value={fields.time}
              required
              aria-invalid={!!errors.time || undefined}
              aria-describedby={describedBy('time', ids.zoneHint)}
              onChange={(e) => set('time', e.target.value)}
            />
            {errors.time && (
              <span id={`${formId}-time-error`} className="field-error">
                {errors.time}
              </span>
            )}
          </div>
          <div className="field">
            <label htmlFor={ids.duration} className="is-required">
              Duration
            </label>
            <select
              id={ids.duration}
              className="select"
              value={fields.duration}
              required
              aria-invalid={!!errors.duration || undefined}
              aria-describedby={describedBy('duration')}
              onChange={(e) => {
                setDurationTouched(true);
                set('duration', e.target.value);
              }}
            >
              <option value="">Select a duration</option>
              {durationOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            {errors.duration && (
              <span id={`${formId}-duration-error`} className="field-error">
                {errors.duration}
              </span>
            )}
          </div>
        </div>

        <div className="appt-grid">
          <div className="field">
            <label htmlFor={ids.endDate}>End date</label>
            <input id={ids.endDate} type="date" className="input" value={end?.date ?? ''} readOnly aria-readonly="true" tabIndex={-1} />
          </div>
          <div className="field">
            <label htmlFor={ids.endTime}>End time</label>
            <input id={ids.endTime} type="time" className="input" value={end?.time ?? ''} readOnly aria-readonly="true" tabIndex={-1} />
          </div>
        </div>
        <p id={ids.zoneHint} className="appt-zone-hint">
          Times are in the company&apos;s time zone ({zone.replace(/_/g, ' ')}).
          {end && fields.date && fields.time && (
            <>
              {' '}
              {formatDate(fields.date)}, {formatWallTime(fields.time)} to{' '}
              {end.date !== fields.date ? `${formatDate(end.date)}, ` : ''}
              {formatWallTime(end.time)}.
            </>
          )}
        </p>

        {editing && (
          <div className="field appt-status">
            <label htmlFor={ids.status}>Status</label>
            <select
              id={ids.status}
              className="select"
              value={fields.status}
              onChange={(e) => set('status', e.target.value as AppointmentStatus)}
            >
              <option value="booked">Booked</option>
              <option value="cancelled">Cancelled</option>
            </select>
            <span className="hint">Cancelling keeps the appointment on record, frees its time and tells the customer.</span>
          </div>
        )}

        <div className="field">
          <label htmlFor={ids.description}>Description</label>
          <textarea
            id={ids.description}
            className="textarea"
            rows={3}
            value={fields.description}
            onChange={(e) => set('description', e.target.value)}
          />
        </div>

        <fieldset className="appt-services">
          <legend className="field-label">Services</legend>
          {serviceRows.length === 0 ? (
            <p className="appt-empty">No services available for this company.</p>
          ) : (
            <ul className="appt-service-list">
              {serviceRows.map((s) => {
                const showPrice = !s.hide_price && s.price !== null && s.price !== undefined;
                const checked = fields.serviceIds.includes(s.id);
                return (
                  <li key={s.id}>
                    <label className={`appt-service${checked ? ' is-checked' : ''}`}>
                      <input type="checkbox" checked={checked} onChange={(e) => toggleService(s.id, e.target.checked)} />
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
      </fieldset>
    </form>
  );
}

// ---------- What changed elsewhere (412) ----------

function ChangeList({
  mine,
  theirs,
  zone,
  customers,
  staff,
}: {
  mine: CalendarAppointment;
  theirs: CalendarAppointment;
  zone: string;
  customers: User[];
  staff: User[];
}) {
  const when = (a: CalendarAppointment) => {
    const s = toWallTime(a.start_time, zone);
    const e = toWallTime(a.end_time, zone);
    return `${formatDate(s.date)}, ${formatWallTime(s.time)} to ${e.date !== s.date ? `${formatDate(e.date)}, ` : ''}${formatWallTime(e.time)}`;
  };
  const who = (a: CalendarAppointment) =>
    a.customer_name || customers.find((c) => c.id === a.user_id)?.name || customerLabel(a);
  const employee = (a: CalendarAppointment) =>
    a.employee_id == null ? 'No specific employee' : a.employee_name || staff.find((s) => s.id === a.employee_id)?.name || `Staff #${a.employee_id}`;
  const svc = (a: CalendarAppointment) => (a.service_types ?? []).map((s) => s.name).join(', ') || 'none';
  const status = (a: CalendarAppointment) => (a.status === 'cancelled' ? 'Cancelled' : 'Booked');
  const rows: [string, string, string][] = [
    ['Time', when(mine), when(theirs)],
    ['Customer', who(mine), who(theirs)],
    ['Employee', employee(mine), employee(theirs)],
    ['Services', svc(mine), svc(theirs)],
    ['Description', mine.description || 'none', theirs.description || 'none'],
    ['Status', status(mine), status(theirs)],
  ];
  const changed = rows.filter(([, a, b]) => a !== b);
  if (changed.length === 0) return <p>It now has version {theirs.version}; nothing you see here differs.</p>;
  return (
    <>
      <p>What changed:</p>
      <ul className="appt-changes">
        {changed.map(([label, was, now]) => (
          <li key={label}>
            <strong>{label}:</strong> {was} <span aria-hidden="true">→</span>
            <span className="visually-hidden"> is now </span> {now}
          </li>
        ))}
      </ul>
    </>
  );
}
