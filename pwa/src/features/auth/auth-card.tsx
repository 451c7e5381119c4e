// What the sign-in, sign-up and password pages share: a narrow card with its heading and an optional
// line under it, the full-width submit button whose label turns busy while sending, and their fields.
import type { ReactNode } from 'react';
import { TextField } from '../../components/form-field.tsx';

export function AuthCard({ title, sub, children }: { title: string; sub?: ReactNode; children: ReactNode }) {
  return (
    <div className="page-narrow">
      <div className="card auth-card">
        <h1>{title}</h1>
        {sub !== undefined && <p className="auth-sub">{sub}</p>}
        {children}
      </div>
    </div>
  );
}

/** The form's submit button; `disabled` is for forms without a disabled fieldset around it. */
export function AuthSubmit({ busy, busyLabel, label, disabled }: { busy: boolean; busyLabel: string; label: string; disabled?: boolean }) {
  return (
    <button type="submit" className="btn btn-primary btn-block" disabled={disabled}>
      {busy ? busyLabel : label}
    </button>
  );
}

/** The Email address field of the sign-in, sign-up and forgot-password forms. */
export function AuthEmailField({
  id,
  value,
  onValueChange,
  disabled,
}: {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  disabled?: boolean;
}) {
  return (
    <TextField
      label="Email address"
      id={id}
      type="email"
      name="email"
      autoComplete="email"
      required
      value={value}
      onValueChange={onValueChange}
      disabled={disabled}
    />
  );
}

/**
 * A new password and its confirmation (sign-up, reset). `named` gives the inputs name attributes
 * where the form has them.
 */
export function NewPasswordFields({
  idPrefix,
  label,
  hint,
  named,
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
}: {
  idPrefix: string;
  label: string;
  hint?: string;
  /** Give the inputs the name attributes `password` and `confirm_password`. */
  named?: boolean;
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
}) {
  return (
    <>
      <TextField
        label={label}
        id={`${idPrefix}-password`}
        hint={hint}
        type="password"
        name={named ? 'password' : undefined}
        autoComplete="new-password"
        required
        minLength={6}
        value={password}
        onValueChange={onPasswordChange}
      />
      <TextField
        label="Confirm password"
        id={`${idPrefix}-confirm`}
        type="password"
        name={named ? 'confirm_password' : undefined}
        autoComplete="new-password"
        required
        value={confirm}
        onValueChange={onConfirmChange}
      />
    </>
  );
}
