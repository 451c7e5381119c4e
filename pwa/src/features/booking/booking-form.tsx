// The booking form (SPEC.md sections 2, 4 and 5): who is booking, then service, team member,
// day and time. Only days and times the server offers can be picked; a time taken by someone
// else in the meantime is reported and the choices refreshed.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../lib/auth.tsx';
import { newIdempotencyKey } from '../../lib/api-client.ts';
import { GENERIC_TEXT, errorMessage, isApiError } from '../../lib/api-errors.ts';
import type { PublicCompany } from '../../lib/api-types.ts';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useEmployees } from './api/get-employees.ts';
import { useServiceTypes } from './api/get-service-types.ts';
import { useAvailableDates, type AvailableDatesParams } from './api/get-available-dates.ts';
import { useAvailableSlots, type AvailableSlotsParams } from './api/get-available-slots.ts';
import { createBooking, type BookingInput } from './api/create-booking.ts';
import { ServiceOptions } from './components/service-options.tsx';
import { DateOptions } from './components/date-options.tsx';
import { formatLongDate, zonedTimeToUtc } from '../../lib/zoned-time.ts';
import type { BookingSummaryState } from './appointment-success-page.tsx';

export const BOOKING_TEXT = {
  loadFailed: 'Failed to load form data',
  selectDate: 'Please select an available date.',
  selectTime: 'Please select a time.',
  selectService: 'Please choose a service.',
  selectEmployee: 'Please choose a team member.',
  name: 'Please enter your full name.',
  email: 'Please enter a valid email address.',
  phone: 'Please enter your phone number.',
  slotTaken: 'Sorry, that time was just booked by someone else. Please choose another time.',
  notAccepting: 'This business is not taking online bookings right now.',
  inProgress: 'Your booking is still being processed. Please wait a moment, then try again.',
  createdLoggedIn: 'Appointment created successfully!',
} as const;

const SUCCESS_REDIRECT_MS = 1_500;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type FieldName = 'name' | 'email' | 'phone' | 'employee' | 'service' | 'date' | 'time';
type FieldErrors = Partial<Record<FieldName, string>>;

const FIELD_ORDER: FieldName[] = ['name', 'email', 'phone', 'employee', 'service', 'date', 'time'];

function browserZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span id={id} className="field-error">
      {message}
    </span>
  ) : null;
}

export function BookingForm({
  company,
  businessSelect,
  onNotAccepting,
}: {
  /** Null while the visitor has not picked a business yet. */
  company: PublicCompany | null;
  /** The business picker, shown first in Appointment Details when no company was given. */
  businessSelect?: ReactNode;
  /** The server said the business is not taking bookings (403). */
  onNotAccepting: () => void;
}) {
  const { user, isAuthenticated } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);

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
  const [booked, setBooked] = useState<BookingSummaryState['booking'] | null>(null);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const focusAfterSubmit = useRef<FieldName | null>(null);

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

  const slotsParams: AvailableSlotsParams | null =
    datesParams && date && dateList.includes(date) ? { ...datesParams, date } : null;
  const slots = useAvailableSlots(slotsParams);
  const slotList = useMemo(() => slots.data ?? [], [slots.data]);

  // SPEC.md section 4: a date no longer offered is cleared, and so is a time no longer free.
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

  const companyZone = company?.timezone ?? null;
  const zoneHint = companyZone && browserZone() && browserZone() !== companyZone ? companyZone : null;

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

  function focusField(field: FieldName) {
    const form = formRef.current;
    if (!form) return;
    const target =
      field === 'service' || field === 'date'
        ? form.querySelector<HTMLElement>(`[name="${field === 'service' ? 'service_type_id' : 'date'}"]`)
        : form.querySelector<HTMLElement>(`#${CSS.escape(`${uid}-${field}`)}`);
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
    const body: BookingInput = {
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

    // One key per attempt: a resend of the very same booking (say, after the connection
    // dropped mid-request) reuses it, so the server books it once; any change is a new attempt.
    const json = JSON.stringify(body);
    if (attempt.current?.body !== json) attempt.current = { body: json, key: newIdempotencyKey() };

    setSubmitting(true);
    try {
      await createBooking(body, attempt.current.key);
      attempt.current = null;
      const employeeName = employees.data?.find((x) => String(x.id) === employeeId)?.name ?? null;
      const summary = {
        companyName: company.name,
        companySlug: company.slug ?? null,
        serviceName: service!.name,
        when: `${formatLongDate(date)} at ${slot.label}`,
        employeeName,
      };
      setBooked(summary);
      void queryClient.invalidateQueries({ queryKey: ['available-slots'] });
      void queryClient.invalidateQueries({ queryKey: ['available-dates'] });
    } catch (err) {
      if (isApiError(err) && err.status !== null && err.status < 500 && err.code !== 'idempotency_in_progress') {
        attempt.current = null; // refused: the next try is a new attempt
      }
      if (isApiError(err) && err.status === 409 && err.code !== 'idempotency_in_progress') {
        setTime('');
        setSlotNotice(BOOKING_TEXT.slotTaken);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: ['available-slots'] }),
          queryClient.invalidateQueries({ queryKey: ['available-dates'] }),
        ]);
        // The form is still disabled here (submitting): move focus once it is enabled again.
        focusAfterSubmit.current = 'time';
      } else if (isApiError(err) && err.code === 'idempotency_in_progress') {
        setFormError(BOOKING_TEXT.inProgress);
      } else if (isApiError(err) && err.status === 403) {
        onNotAccepting();
      } else if (isApiError(err) && err.status === null) {
        setFormError(GENERIC_TEXT.noResponse);
      } else {
        setFormError(errorMessage(err));
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
    formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${uid}-${field}`)}`)?.focus();
  }, [submitting, uid]);

  // Signed-in bookers see the confirmation, then the thank-you page.
  useEffect(() => {
    if (!booked || !isAuthenticated) return;
    const id = setTimeout(
      () => navigate('/appointment-success', { state: { booking: booked } satisfies BookingSummaryState }),
      SUCCESS_REDIRECT_MS,
    );
    return () => clearTimeout(id);
  }, [booked, isAuthenticated, navigate]);

  if (booked) {
    return isAuthenticated ? (
      <div className="card booking-done">
        <Alert tone="success">{BOOKING_TEXT.createdLoggedIn}</Alert>
        <p>
          {booked.serviceName}, {booked.when}.
        </p>
      </div>
    ) : (
      <div className="card booking-done" role="status">
        <h2>Your appointment is booked!</h2>
        <p>
          {booked.serviceName} at {booked.companyName}, {booked.when}. A confirmation is on its way to{' '}
          <strong>{email.trim()}</strong>.
        </p>
        <div className="signup-prompt">
          <h3>Create an account</h3>
          <p>Sign up to see, change or cancel your appointments any time.</p>
          <div className="signup-actions">
            <Link to="/login" className="btn btn-secondary">
              Log In
            </Link>
            <Link
              to={booked.companySlug ? `/register?company=${encodeURIComponent(booked.companySlug)}` : '/register'}
              className="btn btn-primary"
            >
              Sign Up
            </Link>
          </div>
        </div>
        <button
          type="button"
          className="btn-link booking-done-continue"
          onClick={() => navigate('/appointment-success', { state: { booking: booked } satisfies BookingSummaryState })}
        >
          No thanks, finish
        </button>
      </div>
    );
  }

  // Cancel goes back one page; opened straight from a link, there is no page to go back to.
  const goBack = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/');
  };

  const ids = (f: FieldName) => ({ input: `${uid}-${f}`, error: `${uid}-${f}-error` });
  const invalid = (f: FieldName) => (errors[f] ? { 'aria-invalid': true, 'aria-describedby': ids(f).error } : {});
  const clearError = (f: FieldName) => setErrors((e) => (e[f] ? { ...e, [f]: undefined } : e));
  const loadFailed = services.isError || employees.isError;

  return (
    <form ref={formRef} className="booking-form" onSubmit={onSubmit} noValidate>
      {formError && (
        <Alert tone="error" onDismiss={() => setFormError(null)}>
          {formError}
        </Alert>
      )}

      <fieldset className="card booking-section" disabled={submitting}>
        <legend className="booking-legend">Personal Information</legend>
        <div className="field">
          <label htmlFor={ids('name').input}>Full Name</label>
          <input
            id={ids('name').input}
            className="input"
            autoComplete="name"
            required
            value={name}
            disabled={isAuthenticated && !!user?.name}
            onChange={(e) => {
              setName(e.target.value);
              clearError('name');
            }}
            {...invalid('name')}
          />
          <FieldError id={ids('name').error} message={errors.name} />
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor={ids('email').input}>Email Address</label>
            <input
              id={ids('email').input}
              className="input"
              type="email"
              autoComplete="email"
              required
              value={email}
              disabled={isAuthenticated && !!user?.email}
              onChange={(e) => {
                setEmail(e.target.value);
                clearError('email');
              }}
              {...invalid('email')}
            />
            <FieldError id={ids('email').error} message={errors.email} />
          </div>
          <div className="field">
            <label htmlFor={ids('phone').input}>Phone Number</label>
            <input
              id={ids('phone').input}
              className="input"
              type="tel"
              autoComplete="tel"
              required
              value={phone}
              onChange={(e) => {
                setPhone(e.target.value);
                clearError('phone');
              }}
              {...invalid('phone')}
            />
            <FieldError id={ids('phone').error} message={errors.phone} />
          </div>
        </div>
      </fieldset>

      <fieldset className="card booking-section" disabled={submitting}>
        <legend className="booking-legend">Appointment Details</legend>
        {businessSelect}

        {company && services.isPending && <Loading />}
        {company && loadFailed && (
          <Alert tone="error">
            {BOOKING_TEXT.loadFailed}.{' '}
            <button
              type="button"
              className="btn-link"
              onClick={() => {
                void services.refetch();
                if (employeeBooking) void employees.refetch();
              }}
            >
              Try again
            </button>
          </Alert>
        )}

        {company && services.data && (
          <>
            {employeeBooking && (
              <div className="field">
                <label htmlFor={ids('employee').input}>Team Member</label>
                <select
                  id={ids('employee').input}
                  className="select"
                  required
                  value={employeeId}
                  disabled={!employees.data}
                  onChange={(e) => {
                    setEmployeeId(e.target.value);
                    clearError('employee');
                  }}
                  {...invalid('employee')}
                >
                  <option value="">{employees.isPending ? 'Loading...' : 'Select a team member'}</option>
                  {employees.data?.map((emp) => (
                    <option key={emp.id} value={emp.id}>
                      {emp.name}
                    </option>
                  ))}
                </select>
                <FieldError id={ids('employee').error} message={errors.employee} />
              </div>
            )}

            <div className="field">
              <span id="bk-service-label" className="field-label">
                Service
              </span>
              {services.data.length === 0 ? (
                <p className="hint">This business has no services to book online yet.</p>
              ) : (
                <ServiceOptions
                  services={services.data}
                  value={serviceId}
                  onChange={(id) => {
                    setServiceId(id);
                    clearError('service');
                  }}
                  invalid={!!errors.service}
                  describedBy={errors.service ? ids('service').error : undefined}
                />
              )}
              <FieldError id={ids('service').error} message={errors.service} />
            </div>

            <div className="field">
              <span id="bk-date-label" className="field-label">
                Date
              </span>
              {!datesParams ? (
                <p className="hint">
                  {employeeBooking && !employeeId && service
                    ? 'Choose a team member to see available dates.'
                    : 'Choose a service to see available dates.'}
                </p>
              ) : dates.isPending ? (
                <Loading label="Finding available dates..." />
              ) : dates.isError ? (
                isApiError(dates.error) && dates.error.status === 403 ? null : (
                  <Alert tone="error">
                    {errorMessage(dates.error)}{' '}
                    <button type="button" className="btn-link" onClick={() => void dates.refetch()}>
                      Try again
                    </button>
                  </Alert>
                )
              ) : dateList.length === 0 ? (
                <p className="hint">No dates are available in the next 30 days. Please try another service.</p>
              ) : (
                <DateOptions
                  dates={dateList}
                  value={date}
                  onChange={(d) => {
                    setDate(d);
                    setTime(''); // a new day: the old time means nothing
                    clearError('date');
                    setSlotNotice(null);
                  }}
                  invalid={!!errors.date}
                  describedBy={errors.date ? ids('date').error : undefined}
                />
              )}
              <FieldError id={ids('date').error} message={errors.date} />
            </div>

            <div className="field">
              <label htmlFor={ids('time').input}>Time</label>
              {slotNotice && <Alert tone="warn">{slotNotice}</Alert>}
              <select
                id={ids('time').input}
                className="select"
                required
                value={time}
                disabled={!slotsParams || slots.isPending || slotList.length === 0}
                onChange={(e) => {
                  setTime(e.target.value);
                  clearError('time');
                  if (e.target.value) setSlotNotice(null); // another time chosen: the warning is done
                }}
                {...invalid('time')}
                aria-describedby={
                  [errors.time ? ids('time').error : null, zoneHint ? `${uid}-zone` : null].filter(Boolean).join(' ') ||
                  undefined
                }
              >
                <option value="">
                  {!slotsParams
                    ? 'Select a date first'
                    : slots.isPending
                      ? 'Loading times...'
                      : slots.isError
                        ? 'Could not load times'
                        : slotList.length === 0
                          ? 'No times available on this date'
                          : 'Select a time'}
                </option>
                {slotList.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
              {zoneHint && (
                <span id={`${uid}-zone`} className="hint">
                  Times are in the business’s time zone ({zoneHint.replace(/_/g, ' ')}).
                </span>
              )}
              {slots.isError && !(isApiError(slots.error) && slots.error.status === 403) && (
                <Alert tone="error">
                  {errorMessage(slots.error)}{' '}
                  <button type="button" className="btn-link" onClick={() => void slots.refetch()}>
                    Try again
                  </button>
                </Alert>
              )}
              <FieldError id={ids('time').error} message={errors.time} />
            </div>

            <div className="field">
              <label htmlFor={ids('name').input + '-notes'}>Additional Notes</label>
              <textarea
                id={ids('name').input + '-notes'}
                className="textarea"
                value={notes}
                maxLength={2000}
                placeholder="Anything the business should know (optional)"
                onChange={(e) => setNotes(e.target.value)}
              />
            </div>

            <label className="checkbox">
              <input type="checkbox" checked={smsConsent} onChange={(e) => setSmsConsent(e.target.checked)} />
              <span>
                Send me an SMS reminder before my appointment (optional).
                <span className="hint"> Message and data rates may apply. Reply STOP to opt out.</span>
              </span>
            </label>
          </>
        )}
      </fieldset>

      <div className="booking-actions">
        <button type="button" className="btn btn-secondary" onClick={goBack} disabled={submitting}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={submitting || !company}>
          {submitting ? 'Booking...' : 'Book Appointment'}
        </button>
      </div>
    </form>
  );
}
