// The Change Password section of the signed-in user's own settings (docs/product/05-validation.md and 08-errors.md).
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { useChangePassword } from '../../../data/auth.ts';
import { changePasswordError } from '../change-password-error.ts';
import { TextField } from '../../../components/form-field.tsx';

export const PASSWORD_TEXT = {
  currentRequired: 'Current password is required.',
  newRequired: 'New password is required.',
  tooShort: 'New password must be at least 6 characters long.',
  mismatch: 'Passwords do not match.',
  sameAsCurrent: 'New password must be different from current password.',
  done: 'Password changed successfully.',
} as const;

const MIN_PASSWORD = 6;

export function passwordProblem(current: string, next: string, confirm: string): string | null {
  if (!current) return PASSWORD_TEXT.currentRequired;
  if (!next) return PASSWORD_TEXT.newRequired;
  if (next.length < MIN_PASSWORD) return PASSWORD_TEXT.tooShort;
  if (next !== confirm) return PASSWORD_TEXT.mismatch;
  if (next === current) return PASSWORD_TEXT.sameAsCurrent;
  return null;
}

export function ChangePasswordForm({ email }: { email: string }) {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const mutation = useChangePassword();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const p = passwordProblem(current, next, confirm);
    setProblem(p);
    if (p) return;
    mutation.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: (res) => {
          setCurrent('');
          setNext('');
          setConfirm('');
          setDone(res.message || PASSWORD_TEXT.done);
        },
        onError: (err) => setProblem(changePasswordError(err)),
      },
    );
  };

  const edit = (set: (v: string) => void) => (value: string) => {
    set(value);
    setDone(null);
  };

  return (
    <section className="card settings-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Change Password</h2>
      <form onSubmit={onSubmit} noValidate>
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <TextField
          label="Current password"
          id={`${id}-cur`}
          type="password"
          autoComplete="current-password"
          value={current}
          onValueChange={edit(setCurrent)}
        />
        <div className="settings-two">
          <TextField
            label="New password"
            id={`${id}-new`}
            hint={<>At least {MIN_PASSWORD} characters.</>}
            type="password"
            autoComplete="new-password"
            value={next}
            onValueChange={edit(setNext)}
          />
          <TextField
            label="Confirm new password"
            id={`${id}-conf`}
            type="password"
            autoComplete="new-password"
            value={confirm}
            onValueChange={edit(setConfirm)}
          />
        </div>
        {problem && <Alert tone="error">{problem}</Alert>}
        {done && <Alert tone="success">{done}</Alert>}
        <button type="submit" className="btn btn-secondary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Changing password...' : 'Change Password'}
        </button>
      </form>
    </section>
  );
}
