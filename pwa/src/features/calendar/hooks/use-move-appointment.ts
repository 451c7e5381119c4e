// Drag to move and drag to resize: the same checked update as the modal (If-Match with the version
// on screen). A refusal puts the event back and says why; either way the calendar refetches.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { EventDropArg } from '@fullcalendar/core';
import type { EventResizeDoneArg } from '@fullcalendar/interaction';
import { newIdempotencyKey } from '../../../lib/api-client.ts';
import { formatDate, formatWallTime, instantFromCalendarDate, toWallTime } from '../../../lib/zoned-time.ts';
import { appointmentKeys, updateAppointment, type Appointment } from '../../../data/appointments.ts';
import { companyDurationOptionsQuery, durationOptionsQuery } from '../../../data/durations.ts';
import { describeWriteError } from '../appointment-errors.ts';
import { eventTitle } from '../../../components/appointment-text.ts';
import { offeredChoices } from '../durations.ts';

export type MoveMessage = { tone: 'success' | 'error'; text: string };

export function useMoveAppointment(companyId: number | null, zone: string) {
  const queryClient = useQueryClient();
  const companyDurations = useQuery(companyDurationOptionsQuery(companyId));
  const catalogue = useQuery(durationOptionsQuery());
  const [message, setMessage] = useState<MoveMessage | null>(null);

  const onMoved = async (arg: EventDropArg | EventResizeDoneArg, resized: boolean) => {
    const a = arg.event.extendedProps.appointment as Appointment;
    if (!arg.event.start) return arg.revert();
    const start = instantFromCalendarDate(arg.event.start, zone);
    const length = new Date(a.end_time).getTime() - new Date(a.start_time).getTime();
    const end = arg.event.end ? instantFromCalendarDate(arg.event.end, zone) : new Date(start.getTime() + length);
    const changes: Parameters<typeof updateAppointment>[2] = { start_time: start.toISOString(), end_time: end.toISOString() };
    if (resized) {
      // A new length keeps its option only when the company offers one of exactly that length.
      const minutes = Math.round((end.getTime() - start.getTime()) / 60_000);
      const offered = offeredChoices(companyDurations.data ?? [], catalogue.data ?? []);
      changes.appointment_duration_option_id = offered.find((o) => o.minutes === minutes)?.id ?? null;
    }
    setMessage(null);
    try {
      const saved = await updateAppointment(a.id, a.version, changes, newIdempotencyKey());
      // Keep the new position on screen until the refetch confirms it.
      queryClient.setQueriesData<Appointment[]>({ queryKey: appointmentKeys.all }, (list) =>
        Array.isArray(list) ? list.map((x) => (x.id === a.id ? { ...x, ...saved } : x)) : list,
      );
      const w = toWallTime(saved.start_time ?? changes.start_time!, zone);
      setMessage({
        tone: 'success',
        text: `${resized ? 'Appointment resized' : 'Appointment moved'}: ${eventTitle({ ...a, ...saved })}, ${formatDate(w.date)} at ${formatWallTime(w.time)}.`,
      });
    } catch (err) {
      arg.revert();
      const p = describeWriteError(err, 'Failed to save appointment');
      const why =
        p.kind === 'changed' ? 'Someone else changed this appointment meanwhile; the calendar now shows the latest version.' : p.message;
      setMessage({ tone: 'error', text: `The appointment was not ${resized ? 'resized' : 'moved'}. ${why}` });
    } finally {
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    }
  };

  return { message, dismissMessage: () => setMessage(null), onMoved };
}
