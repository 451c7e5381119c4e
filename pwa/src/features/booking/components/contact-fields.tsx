// Personal Information: who is booking (name, email, phone; all required). A signed-in visitor's
// name and email come from their account and cannot be changed here.
import { FormField } from '../../../components/form-field.tsx';
import type { BookingFormState } from '../use-booking-form.ts';

type ContactField = 'name' | 'email' | 'phone';

function ContactInput({
  form,
  field,
  label,
  type,
}: {
  form: BookingFormState;
  field: ContactField;
  label: string;
  type?: 'email' | 'tel';
}) {
  const locked = field === 'phone' ? false : form.locked[field];
  return (
    <FormField label={label} id={form.ids(field).control} error={form.errors[field]}>
      <input
        className="input"
        type={type}
        autoComplete={type === 'tel' ? 'tel' : field}
        required
        value={form.values[field]}
        disabled={locked}
        onChange={(e) => form.edit[field](e.target.value)}
      />
    </FormField>
  );
}

export function ContactFields({ form }: { form: BookingFormState }) {
  return (
    <fieldset className="card booking-section" disabled={form.submitting}>
      <legend className="booking-legend">Personal Information</legend>
      <ContactInput form={form} field="name" label="Full Name" />
      <div className="field-row">
        <ContactInput form={form} field="email" label="Email Address" type="email" />
        <ContactInput form={form} field="phone" label="Phone Number" type="tel" />
      </div>
    </fieldset>
  );
}
