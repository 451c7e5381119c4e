// The appointment modal's form state: its values and errors (the rules are in appointment-values.ts),
// the checked submit and delete, and what to do when someone else changed or deleted the
// appointment meanwhile (the 412 choice).
//
// Writes are checked: POST carries an Idempotency-Key (one per submission attempt, reused when
// the same body is sent again after no answer came), PUT and DELETE carry If-Match with the
// version the user saw. A 409 says the time is taken; a 412 shows what changed elsewhere and
// lets the user load it or keep their own changes (docs/decisions/05-scheduling-rules.md).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key.ts';
import { addMinutesWall } from '../../../lib/zoned-time.ts';
import { appointmentKeys, createAppointment, deleteAppointment, updateAppointment, type Appointment } from '../../../data/appointments.ts';
import type { ServiceType } from '../../../data/service-types.ts';
import { describeWriteError, type WriteProblem } from '../appointment-errors.ts';
import { durationMinutes, durationValueFitting, type DurationChoice } from '../durations.ts';
import {
  FIELD_ERRORS,
  REQUIRED_FIELDS,
  appointmentInput,
  createRequest,
  editRequest,
  initialValues,
  missingFields,
  valuesFromAppointment,
  type AppointmentFormValues,
  type AppointmentModalInitial,
  type FieldErrors,
} from '../appointment-values.ts';
import type { FooterState } from '../components/appointment-modal-footer.tsx';

/** Follows the success text of a create or edit queued offline. */
export const SAVED_ON_DEVICE = 'Saved on this device: it will be sent when the connection returns.';

export const CLOSE_AFTER_SUCCESS_MS = 1500;

export type SavedResult = { action: 'created' | 'updated' | 'deleted'; appointment: Appointment | null };

type Phase = 'editing' | 'saving' | 'deleting' | 'done';

export interface AppointmentFormOptions {
  initial?: AppointmentModalInitial;
  companyId: number;
  zone: string;
  services: ServiceType[];
  choices: DurationChoice[];
  defaultMinutes: number | null;
  onClose: () => void;
  onSaved?: (result: SavedResult) => void;
  onBusyChange: (busy: boolean) => void;
  onFooterChange: (state: FooterState) => void;
}

export function useAppointmentForm({
  initial,
  companyId,
  zone,
  services,
  choices,
  defaultMinutes,
  onClose,
  onSaved,
  onBusyChange,
  onFooterChange,
}: AppointmentFormOptions) {
  const queryClient = useQueryClient();
  const ids = {
    customerId: useId(),
    employeeId: useId(),
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

  const [base, setBase] = useState<Appointment | null>(initial?.appointment ?? null);
  const editing = base !== null || !!initial?.appointment;

  const [values, setValues] = useState<AppointmentFormValues>(() => initialValues(initial, zone, choices, defaultMinutes));
  const [durationTouched, setDurationTouched] = useState(editing);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [phase, setPhase] = useState<Phase>('editing');
  const [success, setSuccess] = useState<string | null>(null);
  const [problem, setProblem] = useState<WriteProblem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const attempts = useIdempotencyKey();
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

  const minutes = durationMinutes(values.duration, choices);
  const end = values.date && /^\d{2}:\d{2}$/.test(values.time) && minutes ? addMinutesWall(values.date, values.time, minutes, zone) : null;

  const set = <K extends keyof AppointmentFormValues>(key: K, value: AppointmentFormValues[K]) => {
    setValues((f) => ({ ...f, [key]: value }));
    if (key in FIELD_ERRORS) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  /** The user picked a length: from now on the services no longer choose it. */
  const chooseDuration = (value: string) => {
    setDurationTouched(true);
    set('duration', value);
  };

  const toggleService = (id: number, checked: boolean) => {
    setValues((f) => {
      const serviceIds = checked ? [...f.serviceIds, id] : f.serviceIds.filter((x) => x !== id);
      let duration = f.duration;
      // Until the user picks a length, a new appointment's length follows the chosen services.
      if (!durationTouched && serviceIds.length > 0) {
        const total = serviceIds.reduce((sum, sid) => sum + (services.find((s) => s.id === sid)?.duration_minutes ?? 0), 0);
        if (total > 0) duration = durationValueFitting(total, choices);
      }
      return { ...f, serviceIds, duration };
    });
    setErrors((e) => ({ ...e, duration: undefined }));
  };

  const validate = (): boolean => {
    const next = missingFields(values, minutes);
    setErrors(next);
    const first = REQUIRED_FIELDS.find((k) => next[k]);
    if (first) {
      document.getElementById(ids[first])?.focus();
      return false;
    }
    return true;
  };

  const finish = (message: string, action: SavedResult['action'], appointment: Appointment | null) => {
    setPhase('done');
    // A change made without a connection is done here but not yet on the server: say so beside the
    // success text, as the calendar marks it waiting to sync (docs/decisions/08-offline-pwa.md).
    setSuccess(appointment?.pending ? `${message} ${SAVED_ON_DEVICE}` : message);
    setProblem(null);
    void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    onSaved?.({ action, appointment });
    closeTimer.current = window.setTimeout(onClose, CLOSE_AFTER_SUCCESS_MS);
  };

  const showProblem = (p: WriteProblem) => {
    setProblem(p);
    setPhase('editing');
    // Someone else's change or deletion: the calendar behind the modal should show it too.
    if (p.kind === 'changed' || p.kind === 'gone' || p.kind === 'slot_taken') {
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    }
    requestAnimationFrame(() => problemRef.current?.focus());
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (phase !== 'editing') return;
    setNotice(null);
    if (!validate() || !minutes) return;
    if (!attempts.begin()) return; // a click in the same instant as the one being sent
    const input = appointmentInput(values, companyId, zone, minutes);
    setPhase('saving');
    setProblem(null);
    const body = JSON.stringify(base ? { ...input, status: values.status, id: base.id, v: base.version } : input);
    const key = attempts.keyFor(body);
    try {
      if (base) {
        const { company_id: _c, ...changes } = input;
        // Only what the user changed (editRequest); the whole form when the first view cannot be rebuilt.
        const shown = valuesFromAppointment(base, zone, choices);
        const shownMinutes = durationMinutes(shown.duration, choices);
        const edit = { ...changes, status: values.status };
        let request: Partial<typeof edit> = edit;
        if (shownMinutes) {
          const { company_id: _b, ...before } = appointmentInput(shown, companyId, zone, shownMinutes);
          request = editRequest(edit, { ...before, status: shown.status });
        }
        const saved = await updateAppointment(base.id, base.version, request, key);
        attempts.succeeded();
        finish('Appointment updated successfully!', 'updated', saved);
      } else {
        const saved = await createAppointment(createRequest(input), key);
        attempts.succeeded();
        finish('Appointment created successfully!', 'created', saved);
      }
    } catch (err) {
      const p = describeWriteError(err, 'Failed to save appointment');
      attempts.failed(p.kind === 'other' && p.retryable);
      showProblem(p);
    }
  };

  const onDelete = async () => {
    if (!base || !attempts.begin()) return;
    setPhase('deleting');
    setProblem(null);
    const key = attempts.keyFor({ delete: base.id, v: base.version });
    try {
      const { queued } = await deleteAppointment(base.id, base.version, key);
      attempts.succeeded();
      setConfirmingDelete(false);
      finish(queued ? `Appointment deleted successfully! ${SAVED_ON_DEVICE}` : 'Appointment deleted successfully!', 'deleted', null);
    } catch (err) {
      const p = describeWriteError(err, 'Failed to delete appointment');
      attempts.failed(p.kind === 'other' && p.retryable);
      setConfirmingDelete(false);
      showProblem(p);
    }
  };

  // The footer (outside the form's DOM) follows the form's state.
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

  /** 412: take the other version and drop the user's changes. */
  const loadTheirs = (current: Appointment) => {
    setBase(current);
    setValues(valuesFromAppointment(current, zone, choices));
    setProblem(null);
    setNotice('The latest version is loaded. Make your changes again if they are still needed.');
  };

  /** 412: keep the user's changes, to be saved over the other version. */
  const keepMine = (current: Appointment) => {
    setBase(current);
    setProblem(null);
    setNotice('Your changes are kept. Press Update Appointment to save them over the latest version.');
  };

  return {
    ids,
    base,
    editing,
    values,
    errors,
    end,
    busy: phase === 'saving' || phase === 'deleting',
    disabled: phase !== 'editing',
    success,
    problem,
    notice,
    dismissNotice: () => setNotice(null),
    problemRef,
    firstFieldRef,
    set,
    chooseDuration,
    toggleService,
    onSubmit,
    loadTheirs,
    keepMine,
  };
}
