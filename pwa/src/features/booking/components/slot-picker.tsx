// When: the day (only the days with a free slot, as a grid of chips) and the time (only the
// day's free start times). Times are in the business's zone, said so when the browser's differs.
import { useEffect, useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { FieldGroup, FormField } from '../../../components/form-field.tsx';
import { Loading } from '../../../components/loading.tsx';
import { SlotSelect } from '../../../components/slot-select.tsx';
import { errorMessage, isApiError } from '../../../lib/api-errors.ts';
import type { BookingFormState } from '../use-booking-form.ts';
import { DateOptions } from '../../../components/date-options.tsx';

let knownZone: string | null | undefined;

/** The browser's time zone from Temporal, where the browser has it: no locale data to load, unlike Intl. */
function temporalZone(): string | undefined {
  try {
    const temporal = (globalThis as { Temporal?: { Now?: { timeZoneId?: () => string } } }).Temporal;
    return temporal?.Now?.timeZoneId?.() || undefined;
  } catch {
    return undefined;
  }
}

function browserZone(): string | null {
  if (knownZone !== undefined) return knownZone;
  try {
    knownZone = temporalZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    knownZone = null;
  }
  return knownZone;
}

/**
 * The browser's time zone, asked once per page load. Without Temporal it is asked after the first
 * paint: the page's first Intl object loads locale data (50 ms and more on a phone), a long task that
 * would otherwise hold up the form's first render.
 */
function useBrowserZone(): string | null {
  const [zone, setZone] = useState<string | null | undefined>(() => knownZone ?? (knownZone = temporalZone()));
  useEffect(() => {
    if (zone === undefined) setZone(browserZone());
  }, [zone]);
  return zone ?? null;
}

/** A 403 means the business stopped taking bookings: the page says so instead of this field. */
const notAccepting = (err: unknown) => isApiError(err) && err.status === 403;

/** The days or times could not be loaded: the reason and a way to ask again. */
function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Alert tone="error">
      {errorMessage(error)}{' '}
      <button type="button" className="btn-link" onClick={onRetry}>
        Try again
      </button>
    </Alert>
  );
}

export function DateField({ form }: { form: BookingFormState }) {
  const { datesParams, dates, dateList, employeeBooking, service, values, edit, errors, ids } = form;
  return (
    <FieldGroup label="Date" labelId="bk-date-label" error={errors.date} errorId={ids('date').error}>
      {!datesParams ? (
        <p className="hint">
          {employeeBooking && !values.employeeId && service
            ? 'Choose a team member to see available dates.'
            : 'Choose a service to see available dates.'}
        </p>
      ) : dates.isPending ? (
        <Loading label="Finding available dates..." />
      ) : dates.isError ? (
        notAccepting(dates.error) ? null : (
          <LoadFailed error={dates.error} onRetry={() => void dates.refetch()} />
        )
      ) : dateList.length === 0 ? (
        <p className="hint">No dates can be booked at the moment. Please try another service.</p>
      ) : (
        <DateOptions
          dates={dateList}
          value={values.date}
          onChange={edit.date}
          invalid={!!errors.date}
          describedBy={errors.date ? ids('date').error : undefined}
        />
      )}
    </FieldGroup>
  );
}

export function TimeField({ form }: { form: BookingFormState }) {
  const { company, slotsParams, slots, slotList, slotNotice, values, edit, errors, ids, uid } = form;
  const companyZone = company?.timezone ?? null;
  const zone = useBrowserZone();
  const zoneHint = companyZone && zone && zone !== companyZone ? companyZone : null;
  const zoneHintId = `${uid}-zone`;
  // The zone hint is not FormField's hint: it stands above the load error, which stands above the field error.
  return (
    <FormField label="Time" id={ids('time').control} error={errors.time} describedBy={zoneHint ? zoneHintId : undefined}>
      {(control) => (
        <>
          {slotNotice && <Alert tone="warn">{slotNotice}</Alert>}
          <SlotSelect
            {...control}
            slots={slotList}
            by="value"
            value={values.time}
            dateChosen={!!slotsParams}
            pending={slots.isPending}
            failed={slots.isError}
            onChange={(e) => edit.time(e.target.value)}
          />
          {zoneHint && (
            <span id={zoneHintId} className="hint">
              Times are in the business’s time zone ({zoneHint.replace(/_/g, ' ')}).
            </span>
          )}
          {slots.isError && !notAccepting(slots.error) && <LoadFailed error={slots.error} onRetry={() => void slots.refetch()} />}
        </>
      )}
    </FormField>
  );
}
