// The settings editor of one person (docs/product/02-screens.md, "Settings page"): read-only email, name and
// phone, the role select (company admins, for other people), per-person work hours (not for
// customers) and Save Changes; Change Password on one's own account only.
// Shown on /settings for the signed-in user and, through the Directory's person view, for anyone
// of the company (the Directory imports this component: the one sharing between those features).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth.tsx';
import { errorMessage, isApiError } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { ROLE_LABELS, RoleBadge } from '../../../components/role-badge.tsx';
import { WeeklyHoursGrid } from '../../../components/weekly-hours-grid.tsx';
import {
  EMPTY_DAY,
  FIX_ERRORS_TEXT,
  dayIntervalsError,
  hoursChanges,
  isEmptyDay,
  joinAcrossBreak,
  splitForBreak,
  weekErrors,
  weekFromRows,
  type OperatingHoursRow,
  type WeekHours,
} from '../../../components/weekly-hours.ts';
import { updateUser, useUser, userKeys, type Role, type User, type UserChanges } from '../../../data/users.ts';
import { applyWorkHours, operatingHoursKeys, useWorkHours } from '../../../data/operating-hours.ts';
import { useMemberCompany } from '../../../data/companies.ts';
import { ChangePasswordForm } from './change-password-form.tsx';
import { TimeOffCard } from './time-off-card.tsx';
import './user-settings-editor.css';
import { FormField, TextField } from '../../../components/form-field.tsx';

export const SETTINGS_TEXT = {
  loading: 'Loading user settings...',
  notFound: 'User not found.',
  saved: 'Settings saved successfully.',
  failed: (message: string) => `Failed to save settings: ${message}`,
} as const;

/** The staff roles an admin may give someone else (docs/decisions/03-tenancy-and-roles.md: never global_admin). */
const ASSIGNABLE_ROLES: Role[] = ['user', 'employee', 'manager', 'admin'];

export function UserSettingsEditor({ userId }: { userId: number }) {
  const user = useUser(userId);
  const companyId = user.data?.company_id ?? null;
  const showHours = !!user.data && user.data.role !== 'customer' && companyId !== null;
  const hours = useWorkHours(showHours ? companyId : null, userId);
  const company = useMemberCompany(showHours ? companyId : null);

  if (user.isPending || (showHours && hours.isPending)) return <Loading label={SETTINGS_TEXT.loading} />;
  if (user.isError) {
    const missing = isApiError(user.error) && (user.error.status === 404 || user.error.status === 403);
    return <Alert tone="error">{missing ? SETTINGS_TEXT.notFound : SETTINGS_TEXT.failed(errorMessage(user.error))}</Alert>;
  }
  if (showHours && hours.isError) return <Alert tone="error">{errorMessage(hours.error)}</Alert>;

  return (
    <SettingsForm
      key={userId}
      user={user.data}
      hourRows={showHours ? (hours.data ?? []) : null}
      increment={company.data?.time_increment_minutes ?? 30}
      zone={company.data?.timezone ?? null}
    />
  );
}

function SettingsForm({
  user,
  hourRows,
  increment,
  zone,
}: {
  user: User;
  hourRows: OperatingHoursRow[] | null;
  increment: number;
  /** The company's time zone (time off dates are the company's); null while unknown. */
  zone: string | null;
}) {
  const id = useId();
  const { user: viewer, refreshUser } = useAuth();
  const queryClient = useQueryClient();
  const isSelf = viewer?.id === user.id;
  const viewerRole = viewer?.role;
  const sameCompany = viewer?.company_id != null && viewer.company_id === user.company_id;
  // Mirrors the server (users/user.policy.ts): admins edit anyone of their company, managers
  // employees, users and customers; everyone edits themselves.
  const managerReaches = user.role !== 'admin' && user.role !== 'manager';
  const canEdit =
    isSelf || viewerRole === 'global_admin' || (sameCompany && (viewerRole === 'admin' || (viewerRole === 'manager' && managerReaches)));
  const showRoleSelect = viewerRole === 'admin' && sameCompany && user.role !== 'customer';
  // Time off (docs/decisions/11-scheduling-rules-beyond-spec.md): one's own, or anyone's for admins and managers.
  const canEditTimeOff = isSelf || viewerRole === 'global_admin' || (sameCompany && (viewerRole === 'admin' || viewerRole === 'manager'));

  const [name, setName] = useState(user.name);
  const [phone, setPhone] = useState(user.phone ?? '');
  const [role, setRole] = useState<Role>(user.role);
  const [week, setWeek] = useState<WeekHours>(() => weekFromRows(hourRows ?? []));
  const [hourErrors, setHourErrors] = useState<Record<number, string>>({});
  const [nameError, setNameError] = useState<string | null>(null);
  const [status, setStatus] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  // A refetch after saving brings the stored rows; the week shown already matches them.
  const [baseRows, setBaseRows] = useState(hourRows ?? []);
  useEffect(() => {
    if (hourRows) setBaseRows(hourRows);
  }, [hourRows]);

  const anyHours = Object.values(week).some((list) => !isEmptyDay(list));

  /** A new list of intervals for `day`; saved with Save Changes. */
  const setDay = (day: number, list: { open: string; close: string }[]) => {
    setWeek((w) => ({ ...w, [day]: list.length > 0 ? list : [{ ...EMPTY_DAY }] }));
    setStatus(null);
    // Once a day has shown a message, it updates as the user fixes it.
    setHourErrors((errs) => {
      if (!(day in errs)) return errs;
      const copy = { ...errs };
      const e = dayIntervalsError(day, list);
      if (e) copy[day] = e;
      else delete copy[day];
      return copy;
    });
  };

  const onDayChange = (day: number, index: number, next: { open: string; close: string }) =>
    setDay(
      day,
      (week[day] ?? [EMPTY_DAY]).map((h, i) => (i === index ? next : h)),
    );

  // Add break splits the day's last hours around their middle (or adds empty hours to fill in).
  const onAddBreak = (day: number) => {
    const list = week[day] ?? [EMPTY_DAY];
    const parts = splitForBreak(list[list.length - 1], increment);
    setDay(day, parts ? [...list.slice(0, -1), ...parts] : [...list, { ...EMPTY_DAY }]);
  };

  const onRemove = (day: number, index: number) => setDay(day, joinAcrossBreak(week[day] ?? [], index));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    const errs = hourRows ? weekErrors(week) : {};
    setHourErrors(errs);
    const trimmedName = name.trim();
    setNameError(trimmedName ? null : 'Name is required.');
    if (Object.keys(errs).length > 0 || !trimmedName) {
      setStatus({ tone: 'error', text: FIX_ERRORS_TEXT });
      return;
    }

    const changes: UserChanges = {};
    if (trimmedName !== user.name) changes.name = trimmedName;
    const trimmedPhone = phone.trim();
    if (trimmedPhone !== (user.phone ?? '')) changes.phone = trimmedPhone || null;
    if (showRoleSelect && !isSelf && role !== user.role) changes.role = role;
    const hourChanges = hourRows ? hoursChanges(baseRows, week) : [];

    if (hourChanges.length > 0 && user.company_id === null) {
      setStatus({ tone: 'error', text: SETTINGS_TEXT.notFound });
      return;
    }

    setSaving(true);
    try {
      if (Object.keys(changes).length > 0) {
        const updated = await updateUser(user.id, changes);
        queryClient.setQueryData(userKeys.detail(user.id), updated);
      }
      if (hourChanges.length > 0) await applyWorkHours(user.company_id!, user.id, hourChanges);
      setStatus({ tone: 'success', text: SETTINGS_TEXT.saved });
    } catch (err) {
      setStatus({ tone: 'error', text: SETTINGS_TEXT.failed(errorMessage(err)) });
    } finally {
      setSaving(false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
        queryClient.invalidateQueries({ queryKey: operatingHoursKeys.all }),
      ]);
      if (isSelf) refreshUser().catch(() => undefined);
    }
  };

  return (
    <div className="settings-editor">
      <form className="settings-form" onSubmit={onSubmit} noValidate aria-label={`Settings of ${user.name}`}>
        <section className="card settings-section" aria-labelledby={`${id}-profile`}>
          <h2 id={`${id}-profile`}>Profile</h2>
          <FormField label="Email" id={`${id}-email`} hint="The email address is the sign-in name and cannot be changed here.">
            <input className="input" type="email" value={user.email} readOnly aria-readonly="true" />
          </FormField>
          <div className="settings-two">
            <TextField
              label="Name"
              id={`${id}-name`}
              error={nameError}
              autoComplete={isSelf ? 'name' : 'off'}
              value={name}
              disabled={!canEdit}
              onValueChange={(value) => {
                setName(value);
                setStatus(null);
                if (value.trim()) setNameError(null);
              }}
            />
            <TextField
              label="Phone"
              id={`${id}-phone`}
              type="tel"
              autoComplete={isSelf ? 'tel' : 'off'}
              value={phone}
              disabled={!canEdit}
              onValueChange={(value) => {
                setPhone(value);
                setStatus(null);
              }}
            />
          </div>
          {showRoleSelect ? (
            <FormField label="Role" id={`${id}-role`} hint={isSelf ? 'You cannot change your own role.' : null}>
              <select
                className="select"
                value={role}
                disabled={isSelf}
                onChange={(e) => {
                  setRole(e.target.value as Role);
                  setStatus(null);
                }}
              >
                {(ASSIGNABLE_ROLES.includes(user.role) ? ASSIGNABLE_ROLES : [user.role, ...ASSIGNABLE_ROLES]).map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
            </FormField>
          ) : (
            <p className="settings-role">
              <span className="field-label">Role</span> <RoleBadge role={user.role} />
            </p>
          )}
        </section>

        {hourRows && (
          <section className="card settings-section" aria-labelledby={`${id}-hours`}>
            <h2 id={`${id}-hours`}>Work hours</h2>
            <p className="settings-lead">
              {isSelf ? 'The hours you work each weekday.' : `The hours ${user.name} works each weekday.`} Customers who choose{' '}
              {isSelf ? 'you' : 'them'} can book only inside these hours and the company's opening hours; once any day has hours, days left
              unset are days off.
            </p>
            {!anyHours && (
              <p className="settings-note" role="note">
                No personal hours set: {isSelf ? 'you work' : `${user.name} works`} the company's opening hours.
              </p>
            )}
            <WeeklyHoursGrid
              value={week}
              errors={hourErrors}
              onChange={onDayChange}
              onAddBreak={onAddBreak}
              onRemove={onRemove}
              increment={increment}
              disabled={!canEdit}
              emptyLabel={anyHours ? 'Day off' : null}
            />
          </section>
        )}

        {canEdit && (
          <div className="settings-actions">
            {status && (
              <Alert tone={status.tone} className="settings-status">
                {status.text}
              </Alert>
            )}
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving ? 'Saving...' : 'Save Changes'}
            </button>
          </div>
        )}
      </form>

      {hourRows && zone && user.company_id !== null && (
        <TimeOffCard
          companyId={user.company_id}
          userId={user.id}
          name={user.name}
          isSelf={isSelf}
          zone={zone}
          increment={increment}
          canEdit={canEditTimeOff}
        />
      )}

      {isSelf && <ChangePasswordForm email={user.email} />}
    </div>
  );
}
