// How customers book: with a specific employee or not, the time increment of offered times, and
// the appointment lengths the company offers with its default. The toggle and the increment are
// applied at once and put back with a short notice when the server refuses (docs/decisions/08-offline-pwa.md).
import { useId, useState } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { useOptimisticCompanySetting, type Company, type CompanyChanges } from '../../../data/companies.ts';
import {
  useCompanyDurationDefault,
  useCompanyDurationOptions,
  useDurationOptions,
  useSaveCompanyDurationDefault,
  useToggleCompanyDurationOption,
} from '../../../data/durations.ts';
import { FormField } from '../../../components/form-field.tsx';

export const EMPLOYEE_BOOKING_LABEL = 'I want customers to book with a specific employee';
export const TIME_INCREMENTS = [15, 30, 45, 60] as const;

export function BookingOptionsCard({ company: saved }: { company: Company }) {
  const id = useId();
  const setting = useOptimisticCompanySetting(saved.id);
  const company = setting.shown(saved);
  const [notice, setNotice] = useState<string | null>(null);

  const apply = (changes: CompanyChanges, what: string) => {
    setNotice(null);
    setting.apply(changes, (err) => {
      console.warn(`Saving ${what} failed`, err);
      setNotice(`Could not save ${what}: ${errorMessage(err)} The previous setting is back.`);
    });
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Booking options</h2>
      {notice && (
        <Alert tone="warn" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <label className="checkbox cs-check">
        <input
          type="checkbox"
          checked={company.enable_employee_booking}
          onChange={(e) => apply({ enable_employee_booking: e.target.checked }, 'the employee booking setting')}
        />
        <span>{EMPLOYEE_BOOKING_LABEL}</span>
      </label>
      <FormField
        label="Time increment"
        id={`${id}-inc`}
        hint={<>Customers are offered a start time every {company.time_increment_minutes} minutes.</>}
      >
        <select
          className="select"
          value={company.time_increment_minutes}
          onChange={(e) =>
            apply({ time_increment_minutes: Number(e.target.value) as CompanyChanges['time_increment_minutes'] }, 'the time increment')
          }
        >
          {TIME_INCREMENTS.map((m) => (
            <option key={m} value={m}>
              {m} minutes
            </option>
          ))}
        </select>
      </FormField>
      <DurationOptions companyId={company.id} />
    </section>
  );
}

function DurationOptions({ companyId }: { companyId: number }) {
  const id = useId();
  const catalogue = useDurationOptions();
  const offered = useCompanyDurationOptions(companyId);
  const current = useCompanyDurationDefault(companyId);
  const toggle = useToggleCompanyDurationOption(companyId);
  const saveDefault = useSaveCompanyDurationDefault(companyId);
  const [problem, setProblem] = useState<string | null>(null);

  if (catalogue.isPending || offered.isPending || current.isPending) {
    return <p className="cs-muted">Loading appointment lengths...</p>;
  }
  if (catalogue.isError || offered.isError || current.isError) {
    return <Alert tone="error">{errorMessage(catalogue.error ?? offered.error ?? current.error)}</Alert>;
  }

  const options = [...catalogue.data].sort((a, b) => a.duration_minutes - b.duration_minutes);
  const rowFor = (optionId: number) => offered.data.find((r) => r.appointment_duration_option_id === optionId);
  const offeredOptions = options.filter((o) => rowFor(o.id));
  const defaultMinutes = current.data?.default_appointment_duration ?? null;

  return (
    <>
      <fieldset className="cs-fieldset">
        <legend className="field-label">Appointment lengths offered</legend>
        <p className="hint cs-hint">Staff choose among these when they create an appointment.</p>
        <div className="cs-chips">
          {options.map((o) => {
            const row = rowFor(o.id);
            const isDefault = !!row && o.duration_minutes === defaultMinutes;
            const lastOne = !!row && offeredOptions.length === 1;
            return (
              <label key={o.id} className={`cs-chip${row ? ' on' : ''}`}>
                <input
                  type="checkbox"
                  checked={!!row}
                  disabled={toggle.isPending || isDefault || lastOne}
                  onChange={(e) => {
                    setProblem(null);
                    toggle.mutate(
                      { optionId: o.id, offered: e.target.checked, row },
                      { onError: (err) => setProblem(`Could not change the appointment lengths: ${errorMessage(err)}`) },
                    );
                  }}
                />
                <span>{o.duration_minutes} minutes</span>
                {isDefault && <span className="cs-chip-tag">default</span>}
              </label>
            );
          })}
        </div>
        <p className="hint cs-hint">The default length stays offered; pick another default to remove it.</p>
      </fieldset>
      <FormField label="Default appointment length" id={`${id}-def`}>
        <select
          className="select"
          value={defaultMinutes ?? ''}
          disabled={saveDefault.isPending || offeredOptions.length === 0}
          onChange={(e) => {
            setProblem(null);
            saveDefault.mutate(
              { current: current.data, minutes: Number(e.target.value) },
              { onError: (err) => setProblem(`Could not save the default length: ${errorMessage(err)}`) },
            );
          }}
        >
          {defaultMinutes === null && <option value="">Choose a default</option>}
          {defaultMinutes !== null && !offeredOptions.some((o) => o.duration_minutes === defaultMinutes) && (
            <option value={defaultMinutes}>{defaultMinutes} minutes</option>
          )}
          {offeredOptions.map((o) => (
            <option key={o.id} value={o.duration_minutes}>
              {o.duration_minutes} minutes
            </option>
          ))}
        </select>
      </FormField>
      {problem && <Alert tone="error">{problem}</Alert>}
    </>
  );
}
