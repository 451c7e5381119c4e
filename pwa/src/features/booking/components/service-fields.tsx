// What is booked, and with whom: the team member (only where the business lets customers choose)
// and the service, as a radio list; each lists only what fits the other's choice.
import { FieldGroup, FormField } from '../../../components/form-field.tsx';
import type { BookingFormState } from '../use-booking-form.ts';
import { ServiceOptions } from './service-options.tsx';

export function EmployeeField({ form }: { form: BookingFormState }) {
  const { employees, employeeOptions, values, edit, errors, ids } = form;
  return (
    <FormField label="Team Member" id={ids('employee').control} error={errors.employee}>
      <select
        className="select"
        required
        value={values.employeeId}
        disabled={!employees.data}
        onChange={(e) => edit.employee(e.target.value)}
      >
        <option value="">{employees.isPending ? 'Loading...' : 'Select a team member'}</option>
        {employeeOptions.map((emp) => (
          <option key={emp.id} value={emp.id}>
            {emp.name}
          </option>
        ))}
      </select>
    </FormField>
  );
}

export function ServiceField({ form }: { form: BookingFormState }) {
  const { services, serviceOptions, employees, values, edit, errors, ids } = form;
  if (!services.data) return null;
  const employeeName = employees.data?.find((e) => String(e.id) === values.employeeId)?.name;
  return (
    <FieldGroup label="Service" labelId="bk-service-label" error={errors.service} errorId={ids('service').error}>
      {services.data.length === 0 ? (
        <p className="hint">This business has no services to book online yet.</p>
      ) : serviceOptions.length === 0 ? (
        <p className="hint">{employeeName ?? 'This team member'} has no services to book online. Please choose another team member.</p>
      ) : (
        <ServiceOptions
          services={serviceOptions}
          value={values.serviceId}
          onChange={edit.service}
          invalid={!!errors.service}
          describedBy={errors.service ? ids('service').error : undefined}
        />
      )}
    </FieldGroup>
  );
}
