// The appointment modal's body: loads what the form needs (company, people, services, lengths),
// then shows the form, the outcome of the last write and, after a 412, the choice between the
// latest version and the user's own changes (docs/product/02-screens.md, "Appointment modal").
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../../components/alert.tsx';
import { DayNotes } from './day-notes.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { errorMessage } from '../../../lib/api-errors.ts';
import { browserZone, isKnownZone } from '../../../lib/zoned-time.ts';
import { companyQuery } from '../../../data/companies.ts';
import { companyDurationDefaultQuery, companyDurationOptionsQuery, durationOptionsQuery } from '../../../data/durations.ts';
import { serviceTypesQuery, type ServiceType } from '../../../data/service-types.ts';
import { customersQuery, staffQuery, type User } from '../../../data/users.ts';
import { durationChoices, type DurationChoice } from '../durations.ts';
import type { AppointmentModalInitial } from '../appointment-values.ts';
import { useAppointmentForm, type AppointmentFormOptions } from '../hooks/use-appointment-form.ts';
import type { FooterState } from './appointment-modal-footer.tsx';
import { ChangeList } from '../../../components/appointment-change-list.tsx';
import {
  CompanyField,
  CustomerField,
  DescriptionField,
  DurationField,
  EmployeeField,
  EndFields,
  ServicesField,
  StartField,
  StatusField,
} from './appointment-fields.tsx';

interface FormProps {
  formId: string;
  initial?: AppointmentModalInitial;
  onClose: () => void;
  onSaved?: AppointmentFormOptions['onSaved'];
  onBusyChange: (busy: boolean) => void;
  onFooterChange: (state: FooterState) => void;
}

export function AppointmentForm({ formId, initial, onClose, onSaved, onBusyChange, onFooterChange }: FormProps) {
  const { user } = useAuth();
  const companyId = user?.company_id ?? null;

  const company = useQuery(companyQuery(companyId));
  // A customer the Directory has just added must be in the list: always refetch on open.
  const customers = useQuery({ ...customersQuery(companyId), staleTime: 0 });
  const staff = useQuery(staffQuery(companyId));
  const services = useQuery(serviceTypesQuery(companyId));
  const companyDurations = useQuery(companyDurationOptionsQuery(companyId));
  const catalogue = useQuery(durationOptionsQuery());
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

  return (
    <AppointmentFormBody
      formId={formId}
      initial={initial}
      companyId={companyId}
      companyName={company.data!.name}
      zone={isKnownZone(company.data!.timezone) ? company.data!.timezone : browserZone()}
      customers={customers.data ?? []}
      staff={staff.data ?? []}
      services={services.data ?? []}
      // The lengths this company offers, with their minutes from the global catalogue.
      choices={durationChoices(companyDurations.data ?? [], catalogue.data ?? [])}
      defaultMinutes={durationDefault.data?.default_appointment_duration ?? null}
      onClose={onClose}
      onSaved={onSaved}
      onBusyChange={onBusyChange}
      onFooterChange={onFooterChange}
    />
  );
}

interface BodyProps extends FormProps {
  companyId: number;
  companyName: string;
  zone: string;
  customers: User[];
  staff: User[];
  services: ServiceType[];
  choices: DurationChoice[];
  defaultMinutes: number | null;
}

const NO_SERVICES: { id: number; name: string }[] = [];

function AppointmentFormBody({ formId, initial, companyName, customers, staff, ...options }: BodyProps) {
  const form = useAppointmentForm({ initial, ...options });
  const { ids, values, errors, problem, base, set } = form;
  const { zone } = options;
  // The form may be scrolled down to its button: the success text at its top is brought into view,
  // or on a phone it would show and close unseen (docs/product/04-states.md).
  const successRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (form.success) successRef.current?.scrollIntoView({ block: 'nearest' });
  }, [form.success]);

  return (
    <form id={formId} className="appt-form" noValidate onSubmit={form.onSubmit} aria-busy={form.busy}>
      {form.success && (
        <div ref={successRef}>
          <Alert tone="success">{form.success}</Alert>
        </div>
      )}
      {form.notice && !form.success && (
        <Alert tone="info" onDismiss={form.dismissNotice}>
          {form.notice}
        </Alert>
      )}
      {problem && (
        <div ref={form.problemRef} tabIndex={-1} className="appt-problem">
          <Alert tone="error">
            <p className="appt-problem-title">{problem.message}</p>
            {problem.kind === 'changed' && problem.current && base && (
              <ChangeList mine={base} theirs={problem.current} zone={zone} customers={customers} staff={staff} />
            )}
          </Alert>
          {problem.kind === 'changed' && problem.current && (
            <div className="appt-problem-actions">
              <button type="button" className="btn btn-primary" onClick={() => form.loadTheirs(problem.current!)}>
                Load Latest Version
              </button>
              <button type="button" className="btn btn-secondary" onClick={() => form.keepMine(problem.current!)}>
                Keep My Changes
              </button>
            </div>
          )}
          {problem.kind === 'gone' && (
            <div className="appt-problem-actions">
              <button type="button" className="btn btn-secondary" onClick={options.onClose}>
                Close
              </button>
            </div>
          )}
        </div>
      )}

      <fieldset disabled={form.disabled} className="appt-fieldset">
        <legend className="visually-hidden">{form.editing ? 'Edit appointment' : 'New appointment'}</legend>

        <CompanyField id={ids.company} name={companyName} />

        <div className="appt-grid">
          <CustomerField
            id={ids.customerId}
            selectRef={form.firstFieldRef}
            value={values.customerId}
            error={errors.customerId}
            customers={customers}
            appointment={initial?.appointment}
            onChange={(v) => set('customerId', v)}
          />
          <EmployeeField
            id={ids.employeeId}
            value={values.employeeId}
            staff={staff}
            appointment={initial?.appointment}
            onChange={(v) => set('employeeId', v)}
          />
        </div>

        <div className="appt-grid appt-grid-3">
          <StartField
            id={ids.date}
            kind="date"
            value={values.date}
            error={errors.date}
            zoneHintId={ids.zoneHint}
            onChange={(v) => set('date', v)}
          />
          <StartField
            id={ids.time}
            kind="time"
            value={values.time}
            error={errors.time}
            zoneHintId={ids.zoneHint}
            onChange={(v) => set('time', v)}
          />
          <DurationField
            id={ids.duration}
            value={values.duration}
            error={errors.duration}
            choices={options.choices}
            onChange={form.chooseDuration}
          />
        </div>

        <EndFields ids={ids} date={values.date} time={values.time} end={form.end} zone={zone} />

        <DayNotes
          id={`${formId}-day-notes`}
          companyId={options.companyId}
          companyName={companyName}
          date={values.date}
          employee={staff.find((p) => String(p.id) === values.employeeId) ?? null}
        />

        {form.editing && <StatusField id={ids.status} value={values.status} onChange={(v) => set('status', v)} />}

        <DescriptionField id={ids.description} value={values.description} onChange={(v) => set('description', v)} />

        <ServicesField
          services={options.services}
          kept={base?.service_types ?? initial?.appointment?.service_types ?? NO_SERVICES}
          checkedIds={values.serviceIds}
          onToggle={form.toggleService}
        />
      </fieldset>
    </form>
  );
}
