// The booking form's state: what the visitor typed and picked, the choices the server offers for
// it (services, team members, days, times), validation, and the submit with one idempotency key
// per attempt. The components only show this state and report changes back.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../lib/auth.tsx';
import { GENERIC_TEXT, errorMessage, fieldProblem, isApiError } from '../../lib/api-errors.ts';
import { useIdempotencyKey } from '../../lib/use-idempotency-key.ts';
import { formatLongDate, zonedTimeToUtc } from '../../lib/zoned-time.ts';
import { fieldIds } from '../../components/form-field.tsx';
import type { CompanyView } from '../../data/companies.ts';
import { useServiceTypes } from '../../data/service-types.ts';
import { useEmployees } from '../../data/users.ts';
import { createAppointment, type AppointmentInput } from '../../data/appointments.ts';
import {
  availabilityKeys,
  useAvailableDates,
  useAvailableSlots,
  type AvailableDatesParams,
  type AvailableSlotsParams,
} from '../../data/availability.ts';
import { BOOKING_TEXT } from './booking-text.ts';
import type { BookingSummaryState } from './appointment-success-page.tsx';

export type BookingFieldName = 'name' | 'email' | 'phone' | 'employee' | 'service' | 'date' | 'time';
type FieldErrors = Partial<Record<BookingFieldName, string>>;
export type BookedSummary = NonNullable<BookingSummaryState['booking']>;

/** Validation order, which is also the order of the fields on screen: focus goes to the first wrong one. */
const FIELD_ORDER: BookingFieldName[] = ['name', 'email', 'phone', 'employee', 'service', 'date', 'time'];

/** The contact field a 400's first detail names (`customer.phone` -> phone) and what is wrong with it, if any. */
function serverFieldOf(err: unknown): { field: BookingFieldName; message: string } | null {
  const problem = fieldProblem(err);
  const field = problem?.path.replace(/^customer\./, '');
  return problem && (field === 'name' || field === 'email' || field === 'phone') ? { field, message: problem.message } : null;
}
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type BookingFormState = ReturnType<typeof useBookingForm>;

export function useBookingForm({
  company,
  onNotAccepting,
}: {
  /** Null while the visitor has not picked a business yet. */
  company: CompanyView | null;
  /** The server said the business is not taking bookings (403). */
  onNotAccepting: () => void;
}) {
  const { user, isAuthenticated } = useAuth();
  const queryClient = useQueryClient();
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const idempotency = useIdempotencyKey();

  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [phone, setPhone] = useState(user?.phone ?? '');
  const [employeeId, setEmployeeId] = useState('');
  const [serviceId, setServiceId] = useState('');
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [notes, setNotes] = useState('');
  const [smsConsent, setSmsConsent] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [slotNotice, setSlotNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [booked, setBooked] = useState<BookedSummary | null>(null);
  const focusAfterSubmit = useRef<BookingFieldName | null>(null);

  // Signed in: name and email come from the account (and stay disabled).
  useEffect(() => {
    if (!user) return;
    setName(user.name || '');
    setEmail(user.email || '');
    setPhone((p) => p || user.phone || '');
  }, [user]);

  const companyId = company?.id ?? null;
  const employeeBooking = !!company?.enable_employee_booking;

  // Another business chosen: its services, staff and days are different.
  useEffect(() => {
    setEmployeeId('');
    setServiceId('');
    setDate('');
    setTime('');
    setErrors({});
    setFormError(null);
    setSlotNotice(null);
  }, [companyId]);

  const services = useServiceTypes(companyId);
  const employees = useEmployees(employeeBooking ? companyId : null);
  const service = services.data?.find((s) => String(s.id) === serviceId) ?? null;
  // Only the people who perform the chosen service (none listed: everyone), docs/decisions/11-scheduling-rules-beyond-spec.md.
  const performers = service?.employee_ids ?? [];
  const employeeOptions = useMemo(
    () => (employees.data ?? []).filter((e) => performers.length === 0 || performers.includes(e.id)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- performers is derived from service
    [employees.data, service],
  );
  // The other way round: with a team member chosen, only the services they perform, so choosing a
  // service never silently drops the team member chosen first.
  const serviceOptions = useMemo(
    () => (services.data ?? []).filter((s) => !employeeId || !s.employee_ids?.length || s.employee_ids.includes(Number(employeeId))),
    [services.data, employeeId],
  );
  useEffect(() => {
    if (employeeId && performers.length > 0 && !performers.includes(Number(employeeId))) setEmployeeId('');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-checked when the service changes
  }, [service]);

  const datesParams: AvailableDatesParams | null =
    company && service && (!employeeBooking || employeeId)
      ? {
          company_id: company.id,
          service_type_id: service.id,
          ...(employeeBooking && employeeId ? { employee_id: Number(employeeId) } : {}),
        }
      : null;
  const dates = useAvailableDates(datesParams);
  const dateList = useMemo(() => dates.data ?? [], [dates.data]);

  const slotsParams: AvailableSlotsParams | null = datesParams && date && dateList.includes(date) ? { ...datesParams, date } : null;
  const slots = useAvailableSlots(slotsParams);
  const slotList = useMemo(() => slots.data ?? [], [slots.data]);

  // docs/product/04-states.md: a date no longer offered is cleared, and so is a time no longer free.
  useEffect(() => {
    if (dates.data && date && !dates.data.includes(date)) {
      setDate('');
      setTime('');
    }
  }, [dates.data, date]);
  useEffect(() => {
    if (slots.data && time && !slots.data.some((s) => s.value === time)) setTime('');
  }, [slots.data, time]);

  // A 403 from the availability calls: the business stopped taking online bookings.
  useEffect(() => {
    for (const err of [dates.error, slots.error]) {
      if (isApiError(err) && err.status === 403) onNotAccepting();
    }
  }, [dates.error, slots.error, onNotAccepting]);

  /** The ids of a field's control and error (the control's id is `${uid}-${field}`). */
  const ids = (field: BookingFieldName) => fieldIds(`${uid}-${field}`);

  const clearError = (field: BookingFieldName) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  /** What each control calls when it changes; picking one thing may clear another. */
  const edit = {
    name(value: string) {
      setName(value);
      clearError('name');
    },
    email(value: string) {
      setEmail(value);
      clearError('email');
    },
    phone(value: string) {
      setPhone(value);
      clearError('phone');
    },
    employee(value: string) {
      setEmployeeId(value);
      clearError('employee');
    },
    service(value: string) {
      setServiceId(value);
      clearError('service');
    },
    date(value: string) {
      setDate(value);
      setTime(''); // a new day: the old time means nothing
      clearError('date');
      setSlotNotice(null);
    },
    time(value: string) {
      setTime(value);
      clearError('time');
      if (value) setSlotNotice(null); // another time chosen: the warning is done
    },
    notes: setNotes,
    smsConsent: setSmsConsent,
  };

  function validate(): FieldErrors {
    const e: FieldErrors = {};
    if (!name.trim()) e.name = BOOKING_TEXT.name;
    if (!EMAIL_RE.test(email.trim())) e.email = BOOKING_TEXT.email;
    if (!phone.trim()) e.phone = BOOKING_TEXT.phone;
    if (employeeBooking && !employeeId) e.employee = BOOKING_TEXT.selectEmployee;
    if (!service) e.service = BOOKING_TEXT.selectService;
    if (!date || !dateList.includes(date)) e.date = BOOKING_TEXT.selectDate;
    if (!time || !slotList.some((s) => s.value === time)) e.time = BOOKING_TEXT.selectTime;
    return e;
  }

  /** Service and date are radio groups: focus goes to their first radio. */
  function focusField(field: BookingFieldName) {
    const form = formRef.current;
    if (!form) return;
    const target =
      field === 'service' || field === 'date'
        ? form.querySelector<HTMLElement>(`[name="${field === 'service' ? 'service_type_id' : 'date'}"]`)
        : form.querySelector<HTMLElement>(`#${CSS.escape(ids(field).control)}`);
    target?.focus();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!company || submitting) return;
    setFormError(null);
    setSlotNotice(null);
    const found = validate();
    setErrors(found);
    const first = FIELD_ORDER.find((f) => found[f]);
    if (first) {
      focusField(first);
      return;
    }

    const slot = slotList.find((s) => s.value === time)!;
    const start = slot.start ? new Date(slot.start) : zonedTimeToUtc(date, time, company.timezone);
    const end = new Date(start.getTime() + service!.duration_minutes * 60_000);
    const body: AppointmentInput = {
      company_id: company.id,
      service_type_ids: [service!.id],
      start_time: start.toISOString(),
      end_time: end.toISOString(),
      description: notes.trim(),
      ...(employeeBooking && employeeId ? { employee_id: Number(employeeId) } : {}),
      ...(user && user.role === 'customer' && user.company_id === company.id ? { user_id: user.id } : {}),
      customer: { name: name.trim(), email: email.trim(), phone: phone.trim() },
      sms_consent: smsConsent,
    };

    if (!idempotency.begin()) return; // a click in the same instant as the one being sent
    // A resend of the very same booking (say, after the connection dropped mid-request) reuses
    // the key, so the server books it once; any change is a new attempt.
    const key = idempotency.keyFor(body);
    setSubmitting(true);
    try {
      await createAppointment(body, key);
      idempotency.succeeded();
      const employeeName = employees.data?.find((x) => String(x.id) === employeeId)?.name ?? null;
      setBooked({
        companyName: company.name,
        companySlug: company.slug ?? null,
        serviceName: service!.name,
        when: `${formatLongDate(date)} at ${slot.label}`,
        employeeName,
      });
      void queryClient.invalidateQueries({ queryKey: availabilityKeys.all });
    } catch (err) {
      const inProgress = isApiError(err) && err.code === 'idempotency_in_progress';
      // Refused (4xx): the next try is a new attempt. No answer, 5xx or still in progress: it may
      // have been booked, so the same booking sent again keeps its key.
      idempotency.failed(!(isApiError(err) && err.status !== null && err.status < 500 && !inProgress));
      if (isApiError(err) && err.status === 409 && !inProgress) {
        setTime('');
        setSlotNotice(BOOKING_TEXT.slotTaken);
        await queryClient.invalidateQueries({ queryKey: availabilityKeys.all });
        // The form is still disabled here (submitting): move focus once it is enabled again.
        focusAfterSubmit.current = 'time';
      } else if (inProgress) {
        setFormError(BOOKING_TEXT.inProgress);
      } else if (isApiError(err) && err.status === 403) {
        onNotAccepting();
      } else if (isApiError(err) && err.status === null) {
        setFormError(GENERIC_TEXT.noResponse);
      } else {
        // A refused contact field (a phone number the server cannot read): its message goes under the
        // field, marked invalid, and focus goes to it, which on a phone brings both into view from the
        // button at the bottom (a message at the top of the form would scroll under the sticky header).
        const refused = serverFieldOf(err);
        if (refused) {
          setErrors({ [refused.field]: refused.message });
          focusAfterSubmit.current = refused.field;
        } else setFormError(errorMessage(err));
      }
    } finally {
      setSubmitting(false);
    }
  }

  // After a refused booking, focus goes to the field to fix (a disabled field cannot take it
  // while the request is out).
  useEffect(() => {
    const field = focusAfterSubmit.current;
    if (submitting || !field) return;
    focusAfterSubmit.current = null;
    formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldIds(`${uid}-${field}`).control)}`)?.focus();
  }, [submitting, uid]);

  return {
    company,
    formRef,
    uid,
    ids,
    values: { name, email, phone, employeeId, serviceId, date, time, notes, smsConsent },
    edit,
    errors,
    formError,
    dismissFormError: () => setFormError(null),
    slotNotice,
    submitting,
    booked,
    onSubmit,
    /** Name and email come from the signed-in account and cannot be edited. */
    locked: { name: isAuthenticated && !!user?.name, email: isAuthenticated && !!user?.email },
    isAuthenticated,
    employeeBooking,
    services,
    employees,
    employeeOptions,
    serviceOptions,
    service,
    datesParams,
    dates,
    dateList,
    slotsParams,
    slots,
    slotList,
  };
}
