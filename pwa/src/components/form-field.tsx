// One labelled form field: the label, the control, an optional hint and an optional error, wired
// together (htmlFor/id, aria-describedby, aria-invalid) so screen readers read them as one field.
import { cloneElement, useId, type InputHTMLAttributes, type ReactElement, type ReactNode } from 'react';

/** What the control needs to be tied to its label, hint and error. */
export type FieldControlProps = {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
};

/** The ids of a field's control, hint and error, for code that moves focus or describes by id. */
export function fieldIds(id: string) {
  return { control: id, hint: `${id}-hint`, error: `${id}-error` };
}

/**
 * A `.field` block. The child is the control (an input, select or textarea): it gets the id,
 * `aria-describedby` (hint, then error, then any `describedBy` ids) and `aria-invalid` while
 * there is an error. When the control sits inside other markup, pass a function instead: it
 * receives those props to spread onto the control.
 *
 * ```tsx
 * <FormField label="Email address" id="login-email">
 *   <input className="input" type="email" value={email} onChange={...} />
 * </FormField>
 * ```
 */
export function FormField({
  label,
  id: givenId,
  hint,
  error,
  describedBy,
  className,
  labelClassName,
  children,
}: {
  label: ReactNode;
  /** The control's id; a generated one when omitted. */
  id?: string;
  /** Help shown under the control (`<span class="hint">`), read as its description. */
  hint?: ReactNode;
  /** The field's validation message (`<span class="field-error">`); the control is marked invalid while set. */
  error?: string | null;
  /** Further ids that describe the control (space-separated), read after the hint and error. */
  describedBy?: string;
  /** Extra classes for the wrapper next to `field`. */
  className?: string;
  labelClassName?: string;
  children: ReactElement<Partial<FieldControlProps>> | ((control: FieldControlProps) => ReactNode);
}) {
  const generated = useId();
  const ids = fieldIds(givenId ?? generated);
  const hasHint = hint !== undefined && hint !== null && hint !== false;
  const describedByIds = [hasHint ? ids.hint : null, error ? ids.error : null, describedBy || null].filter(Boolean).join(' ');
  const control: FieldControlProps = {
    id: ids.control,
    ...(describedByIds ? { 'aria-describedby': describedByIds } : {}),
    ...(error ? { 'aria-invalid': true } : {}),
  };

  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={ids.control} className={labelClassName}>
        {label}
      </label>
      {typeof children === 'function' ? children(control) : cloneElement(children, control)}
      {hasHint && (
        <span id={ids.hint} className="hint">
          {hint}
        </span>
      )}
      <FieldError id={ids.error} message={error} />
    </div>
  );
}

/**
 * The common case of a FormField: one `<input class="input">` whose text is kept in state.
 * Every other input attribute (type, name, autoComplete, required, disabled...) passes through.
 *
 * ```tsx
 * <TextField label="Password" id="login-password" type="password" value={password} onValueChange={setPassword} />
 * ```
 */
export function TextField({
  label,
  id,
  hint,
  error,
  className,
  labelClassName,
  onValueChange,
  ...input
}: {
  label: ReactNode;
  id?: string;
  hint?: ReactNode;
  error?: string | null;
  /** Extra classes for the wrapper next to `field`. */
  className?: string;
  labelClassName?: string;
  /** Called with the input's new text on every change. */
  onValueChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'onChange' | 'children'>) {
  return (
    <FormField label={label} id={id} hint={hint} error={error} className={className} labelClassName={labelClassName}>
      <input className="input" {...input} onChange={(e) => onValueChange(e.target.value)} />
    </FormField>
  );
}

/** A search box over a list: filters as you type. */
export function SearchField(props: {
  label: string;
  id: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
  className?: string;
  labelClassName?: string;
}) {
  return <TextField type="search" {...props} />;
}

/**
 * A field whose control is a group (a radio list): the caption is not a <label> but a span the
 * group names itself by (`aria-labelledby={labelId}`), and the error sits under the group.
 */
export function FieldGroup({
  label,
  labelId,
  error,
  errorId,
  children,
}: {
  label: ReactNode;
  labelId: string;
  error?: string | null;
  errorId: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <span id={labelId} className="field-label">
        {label}
      </span>
      {children}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** A field's validation message. */
export function FieldError({ id, message }: { id: string; message?: string | null }) {
  return message ? (
    <span id={id} className="field-error">
      {message}
    </span>
  ) : null;
}
