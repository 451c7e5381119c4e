// The Add Employee and Add Customer modals (docs/product/02-screens.md, "Directory"): Full Name*, Email*,
// Phone (optional) and, for staff, Role*. On success a notice says an email was sent to set the
// password, and the modal closes 2 seconds later.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useAddPerson, type PersonKind, type Role } from '../../../data/users.ts';
import { Alert } from '../../../components/alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ROLE_LABELS } from '../../../components/role-badge.tsx';
import { addPersonError } from '../add-person-error.ts';
import { fieldProblem } from '../../../lib/api-errors.ts';
import { FormField, TextField } from '../../../components/form-field.tsx';

export const CLOSE_AFTER_ADD_MS = 2000;

export const addedText = (kind: PersonKind, email: string) =>
  `${kind === 'employee' ? 'Employee' : 'Customer'} added. An email was sent to ${email} to set their password.`;

export function AddPersonModal({
  kind,
  open,
  onClose,
  companyId,
  staffRoles,
}: {
  kind: PersonKind;
  open: boolean;
  onClose: () => void;
  companyId: number;
  /** Roles the signed-in person may give (Add Employee only). */
  staffRoles: Role[];
}) {
  const title = kind === 'employee' ? 'Add Employee' : 'Add Customer';
  const formId = useId();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      busy={busy}
      description={
        kind === 'employee'
          ? 'They will get an email with a link to set their password and sign in.'
          : 'They will get an email with a link to set a password, so they can see and book their appointments.'
      }
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            {done ? 'Close' : 'Cancel'}
          </button>
          {!done && (
            <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
              {busy ? 'Adding...' : title}
            </button>
          )}
        </>
      }
    >
      <AddPersonForm
        kind={kind}
        formId={formId}
        companyId={companyId}
        staffRoles={staffRoles}
        onBusy={setBusy}
        onDone={() => setDone(true)}
        onClose={onClose}
      />
    </Modal>
  );
}

function AddPersonForm({
  kind,
  formId,
  companyId,
  staffRoles,
  onBusy,
  onDone,
  onClose,
}: {
  kind: PersonKind;
  formId: string;
  companyId: number;
  staffRoles: Role[];
  onBusy: (busy: boolean) => void;
  onDone: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const mutation = useAddPerson(companyId, kind);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [phoneProblem, setPhoneProblem] = useState<string | null>(null);
  const [role, setRole] = useState<Role>(staffRoles[0] ?? 'employee');
  const [problem, setProblem] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (success || mutation.isPending) return;
    const n = name.trim();
    const m = email.trim();
    if (!n || !m) return setProblem('Full name and email are required.');
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(m)) return setProblem('Please enter a valid email address.');
    setProblem(null);
    onBusy(true);
    mutation.mutate(
      { name: n, email: m, phone: phone.trim() || null, role: kind === 'employee' ? role : undefined },
      {
        onSuccess: () => {
          setSuccess(addedText(kind, m));
          onDone();
          closeTimer.current = setTimeout(() => onCloseRef.current(), CLOSE_AFTER_ADD_MS);
        },
        onError: (err) => {
          // A phone number the server cannot read: said under the Phone field, without the field's API name.
          const refused = fieldProblem(err);
          if (refused?.path === 'phone') setPhoneProblem(refused.message);
          else setProblem(addPersonError(kind, err));
        },
        onSettled: () => onBusy(false),
      },
    );
  };

  const locked = mutation.isPending || success !== null;
  // Editing a required field clears the problem it may have caused.
  const editRequired = (set: (v: string) => void) => (value: string) => {
    set(value);
    setProblem(null);
  };

  return (
    <form id={formId} onSubmit={onSubmit} noValidate>
      <TextField
        label="Full Name*"
        id={`${id}-name`}
        required
        aria-required="true"
        autoComplete="off"
        value={name}
        disabled={locked}
        onValueChange={editRequired(setName)}
      />
      <TextField
        label="Email*"
        id={`${id}-email`}
        type="email"
        required
        aria-required="true"
        autoComplete="off"
        value={email}
        disabled={locked}
        onValueChange={editRequired(setEmail)}
      />
      <TextField
        label="Phone (optional)"
        id={`${id}-phone`}
        type="tel"
        autoComplete="off"
        value={phone}
        disabled={locked}
        error={phoneProblem}
        onValueChange={(value) => {
          setPhone(value);
          setPhoneProblem(null);
        }}
      />
      {kind === 'employee' && (
        <FormField
          label="Role*"
          id={`${id}-role`}
          hint={staffRoles.length === 1 ? 'Managers add employees; an admin adds managers and admins.' : null}
        >
          <select
            className="select"
            required
            aria-required="true"
            value={role}
            disabled={locked}
            onChange={(e) => setRole(e.target.value as Role)}
          >
            {staffRoles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </FormField>
      )}
      {problem && <Alert tone="error">{problem}</Alert>}
      {success && <Alert tone="success">{success}</Alert>}
    </form>
  );
}
