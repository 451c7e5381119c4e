// Edit a company's subscription expiry (a datetime-local field; empty means unlimited).
import { useId, useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { Alert } from '../../../components/alert.tsx';
import { useUpdateSubscription, type AdminCompany } from '../../../data/admin.ts';
import { ADMIN_TEXT, LoadError } from './load-error.tsx';
import { FormField } from '../../../components/form-field.tsx';

/** 'YYYY-MM-DDTHH:MM' in the reader's time zone, as datetime-local inputs want it. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function EditSubscriptionModal({ company, onClose }: { company: AdminCompany; onClose: () => void }) {
  const id = useId();
  const formId = `${id}-form`;
  const [value, setValue] = useState(toLocalInput(company.subscription_expires_at));
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useUpdateSubscription();

  const save = () => {
    let expiresAt: string | null = null;
    if (value) {
      const d = new Date(value);
      if (Number.isNaN(d.getTime())) return setProblem('Please enter a valid date and time, or leave it empty.');
      expiresAt = d.toISOString();
    }
    setProblem(null);
    mutation.mutate({ companyId: company.id, expiresAt }, { onSuccess: onClose });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };

  return (
    <Modal
      open
      onClose={onClose}
      title="Edit subscription"
      description={company.name}
      busy={mutation.isPending}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? 'Saving...' : 'Save Changes'}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate>
        <FormField
          label="Subscription expires"
          id={`${id}-exp`}
          hint="In your time zone. Leave empty for an unlimited subscription that never expires."
        >
          <input
            className="input"
            type="datetime-local"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              mutation.reset();
            }}
          />
        </FormField>
        {value && (
          <button type="button" className="btn-link adm-clear" onClick={() => setValue('')}>
            Clear (never expires)
          </button>
        )}
        {problem && <Alert tone="error">{problem}</Alert>}
        {mutation.isError && <LoadError text={ADMIN_TEXT.subscription} onRetry={save} />}
      </form>
    </Modal>
  );
}
