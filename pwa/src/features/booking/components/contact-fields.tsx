// Personal Information: who is booking (name, email, phone; all required). A signed-in visitor's
// name and email come from their account and cannot be changed here.
import { FormField } from '../../../components/form-field.tsx';
import type { BookingFormState } from '../use-booking-form.ts';

export function ContactFields({ form }: { form: BookingFormState }) {
  const { values, edit, errors, ids, locked } = form;
  return (
    <fieldset className="card booking-section" disabled={form.submitting}>
      <legend className="booking-legend">Personal Information</legend>
      <FormField label="Full Name" id={ids('name').control} error={errors.name}>
        <input
          className="input"
          autoComplete="name"
          required
          value={values.name}
          disabled={locked.name}
          onChange={(e) => edit.name(e.target.value)}
        />
      </FormField>
      <div className="field-row">
        <FormField label="Email Address" id={ids('email').control} error={errors.email}>
          <input
            className="input"
            type="email"
            autoComplete="email"
            required
            value={values.email}
            disabled={locked.email}
            onChange={(e) => edit.email(e.target.value)}
          />
        </FormField>
        <FormField label="Phone Number" id={ids('phone').control} error={errors.phone}>
          <input
            className="input"
            type="tel"
            autoComplete="tel"
            required
            value={values.phone}
            onChange={(e) => edit.phone(e.target.value)}
          />
        </FormField>
      </div>
    </fieldset>
  );
}
