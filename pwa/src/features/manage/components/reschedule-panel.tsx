// Move to another time: the days with a free slot and that day's free start times, from the same
// public availability endpoints (and the same day chips) as the booking page, for the appointment's
// service and employee. The server re-checks everything under the booking lock.
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { DateOptions } from '../../../components/date-options.tsx';
import { FieldGroup, FormField } from '../../../components/form-field.tsx';
import { Loading } from '../../../components/loading.tsx';
import { SlotSelect } from '../../../components/slot-select.tsx';
import { errorMessage, isApiError } from '../../../lib/api-errors.ts';
import { useAvailableDates, useAvailableSlots, type AvailableDatesParams } from '../../../data/availability.ts';
import { useRescheduleManagedAppointment, type ManagedAppointment } from '../../../data/manage.ts';
import { foreignZone } from '../manage-format.ts';
import { MANAGE_TEXT, noDatesText } from '../manage-text.ts';

export function ReschedulePanel({
  token,
  appointment,
  onClose,
  onDone,
}: {
  token: string;
  appointment: ManagedAppointment;
  onClose: () => void;
  onDone: () => void;
}) {
  const service = appointment.services[0];
  // The server keeps the appointment's length when it moves it: offer the times that length fits.
  const minutes = Math.round((Date.parse(appointment.end_time) - Date.parse(appointment.start_time)) / 60_000);
  const params: AvailableDatesParams | null = service
    ? {
        company_id: appointment.company_id,
        service_type_id: service.id,
        ...(appointment.employee_id ? { employee_id: appointment.employee_id } : {}),
        ...(minutes !== service.duration_minutes ? { duration_minutes: minutes } : {}),
      }
    : null;
  const [date, setDate] = useState('');
  const [start, setStart] = useState('');
  const dates = useAvailableDates(params);
  const slots = useAvailableSlots(params && date ? { ...params, date } : null);
  const move = useRescheduleManagedAppointment(token);
  const zone = foreignZone(appointment.timezone);
  // Its own time is taken by itself: not offered as a "new" time.
  const slotList = (slots.data ?? []).filter((s) => Date.parse(s.start) !== Date.parse(appointment.start_time));

  const failure = move.isError
    ? isApiError(move.error) && move.error.code === 'slot_taken'
      ? MANAGE_TEXT.slotTaken
      : errorMessage(move.error)
    : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!start) return;
    move.mutate(start, {
      onSuccess: onDone,
      onError: (err) => {
        if (isApiError(err) && err.code === 'slot_taken') {
          setStart('');
          void slots.refetch();
        }
      },
    });
  }

  return (
    <form className="manage-reschedule" onSubmit={submit} aria-labelledby="manage-reschedule-title">
      <h2 id="manage-reschedule-title">{MANAGE_TEXT.rescheduleTitle}</h2>
      <FieldGroup label="Date" labelId="manage-date-label" errorId="manage-date-error">
        {dates.isPending ? (
          <Loading label="Finding available dates..." />
        ) : dates.isError ? (
          <Alert tone="error">{errorMessage(dates.error)}</Alert>
        ) : (dates.data ?? []).length === 0 ? (
          <p className="hint">{noDatesText(appointment.booking_window_days)}</p>
        ) : (
          <DateOptions
            dates={dates.data ?? []}
            value={date}
            onChange={(d) => {
              setDate(d);
              setStart('');
              move.reset();
            }}
            invalid={false}
            labelledBy="manage-date-label"
          />
        )}
      </FieldGroup>
      <FormField label="Time" id="manage-time" hint={zone ? `Times are in the business’s time zone (${zone}).` : undefined}>
        <SlotSelect
          slots={slotList}
          by="start"
          value={start}
          dateChosen={!!date}
          pending={slots.isPending}
          failed={slots.isError}
          onChange={(e) => {
            setStart(e.target.value);
            move.reset();
          }}
        />
      </FormField>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="manage-actions">
        <button type="submit" className="btn btn-primary btn-block" disabled={!start || move.isPending}>
          {move.isPending ? 'Moving...' : MANAGE_TEXT.rescheduleSubmit}
        </button>
        <button type="button" className="btn btn-ghost btn-block" disabled={move.isPending} onClick={onClose}>
          {MANAGE_TEXT.rescheduleClose}
        </button>
      </div>
    </form>
  );
}
