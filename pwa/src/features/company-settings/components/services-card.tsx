// The services table: add, edit and delete the company's service types (docs/product/05-validation.md:
// 'Name and duration are required.'; duration at least 1, default 30 for a new one; price at
// least 0; available slots at least 1; price can be hidden from customers). Buffers before and after
// (0 to 240 minutes) and who performs it (nobody ticked: every staff member) come from
// docs/decisions/11-scheduling-rules-beyond-spec.md.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useServiceTypes, useWriteServiceType, type ServiceType, type ServiceTypeInput } from '../../../data/service-types.ts';
import { TextField } from '../../../components/form-field.tsx';
import { TableHead } from '../../../components/table-head.tsx';
import { useEmployees } from '../../../data/users.ts';

export const SERVICE_TEXT = {
  required: 'Name and duration are required.',
  durationMin: 'Duration must be at least 1 minute.',
  priceMin: 'Price must be at least 0.',
  slotsMin: 'Available slots must be at least 1.',
  buffer: 'Buffers must be whole minutes from 0 to 240.',
} as const;

export const MAX_BUFFER_MINUTES = 240;

export const DEFAULT_SERVICE_DURATION = 30;

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

interface Draft {
  name: string;
  duration: string;
  price: string;
  slots: string;
  hidePrice: boolean;
  bufferBefore: string;
  bufferAfter: string;
  /** Who performs it; empty: every staff member. */
  employeeIds: number[];
}

const NEW_DRAFT: Draft = {
  name: '',
  duration: String(DEFAULT_SERVICE_DURATION),
  price: '',
  slots: '1',
  hidePrice: false,
  bufferBefore: '0',
  bufferAfter: '0',
  employeeIds: [],
};

const draftOf = (s: ServiceType): Draft => ({
  name: s.name,
  duration: String(s.duration_minutes),
  price: s.price === null || s.price === undefined ? '' : String(s.price),
  slots: String(s.available_slots ?? 1),
  hidePrice: s.hide_price,
  bufferBefore: String(s.buffer_before_minutes ?? 0),
  bufferAfter: String(s.buffer_after_minutes ?? 0),
  employeeIds: [...(s.employee_ids ?? [])],
});

/** 'Buffers: 10 min before, 15 min after · By Emma Stylist' for the table, or '' without rules. */
export function serviceRules(s: ServiceType, staff: readonly { id: number; name: string }[]): string {
  const buffers = [
    s.buffer_before_minutes ? `${s.buffer_before_minutes} min before` : '',
    s.buffer_after_minutes ? `${s.buffer_after_minutes} min after` : '',
  ].filter(Boolean);
  const ids = s.employee_ids ?? [];
  const by = ids.map((id) => staff.find((p) => p.id === id)?.name).filter(Boolean);
  return [
    buffers.length ? `Buffers: ${buffers.join(', ')}` : '',
    ids.length ? `By ${by.length ? by.join(', ') : `${ids.length} staff`}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Whole minutes from 0 to 240 ('' is 0), or null. */
function bufferOf(text: string): number | null {
  const t = text.trim();
  if (t === '') return 0;
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n <= MAX_BUFFER_MINUTES ? n : null;
}

export function serviceProblem(d: Draft): string | ServiceTypeInput {
  if (!d.name.trim() || d.duration.trim() === '') return SERVICE_TEXT.required;
  const duration = Number(d.duration);
  if (!Number.isInteger(duration) || duration < 1) return SERVICE_TEXT.durationMin;
  const price = d.price.trim() === '' ? null : Number(d.price);
  if (price !== null && (!Number.isFinite(price) || price < 0)) return SERVICE_TEXT.priceMin;
  const slots = d.slots.trim() === '' ? 1 : Number(d.slots);
  if (!Number.isInteger(slots) || slots < 1) return SERVICE_TEXT.slotsMin;
  const before = bufferOf(d.bufferBefore);
  const after = bufferOf(d.bufferAfter);
  if (before === null || after === null) return SERVICE_TEXT.buffer;
  return {
    name: d.name.trim(),
    duration_minutes: duration,
    price,
    hide_price: d.hidePrice,
    available_slots: slots,
    buffer_before_minutes: before,
    buffer_after_minutes: after,
    employee_ids: [...d.employeeIds].sort((a, b) => a - b),
  };
}

export function ServicesCard({ companyId }: { companyId: number }) {
  const id = useId();
  const services = useServiceTypes(companyId);
  const staff = useEmployees(companyId);
  const { save, remove } = useWriteServiceType(companyId);
  /** null: nothing open; 'new': the add form; a number: that service being edited. */
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // Closing a form (Cancel, Escape or a save) gives the focus back to the button that opened it, as
  // the dialogs do: the form's elements are gone, and the focus would fall to the page's body.
  const section = useRef<HTMLElement>(null);
  const reopenWith = useRef<string | null>(null);
  const closeForm = () => {
    reopenWith.current = editing === null ? null : `[data-opens="${editing}"]`;
    setEditing(null);
  };
  useEffect(() => {
    if (editing !== null || !reopenWith.current) return;
    section.current?.querySelector<HTMLElement>(reopenWith.current)?.focus();
    reopenWith.current = null;
  }, [editing]);

  const onSave = (serviceId: number | null, input: ServiceTypeInput, done: (problem: string | null) => void) => {
    setStatus(null);
    save.mutate(
      { id: serviceId, input },
      {
        onSuccess: (res) => {
          closeForm();
          setStatus({ tone: 'success', text: res?.message || (serviceId === null ? 'Service created.' : 'Service updated.') });
          done(null);
        },
        onError: (err) => done(errorMessage(err)),
      },
    );
  };

  const onDelete = (s: ServiceType) => {
    if (!window.confirm(`Delete the service "${s.name}"? Past appointments keep its name.`)) return;
    setStatus(null);
    remove.mutate(s.id, {
      onSuccess: () => setStatus({ tone: 'success', text: `Service "${s.name}" deleted.` }),
      onError: (err) => setStatus({ tone: 'error', text: `Could not delete "${s.name}": ${errorMessage(err)}` }),
    });
  };

  return (
    <section ref={section} className="card cs-card cs-services" aria-labelledby={`${id}-h`}>
      <div className="cs-card-head">
        <h2 id={`${id}-h`}>Services</h2>
        <button
          type="button"
          className="btn btn-primary"
          data-opens="new"
          onClick={() => {
            setStatus(null);
            setEditing('new');
          }}
          disabled={editing === 'new'}
        >
          + Add Service
        </button>
      </div>
      {status && (
        <Alert tone={status.tone} onDismiss={() => setStatus(null)}>
          {status.text}
        </Alert>
      )}
      {editing === 'new' && (
        <ServiceForm
          companyId={companyId}
          title="New service"
          initial={NEW_DRAFT}
          saving={save.isPending}
          onCancel={closeForm}
          onSubmit={(input, done) => onSave(null, input, done)}
        />
      )}
      {services.isPending ? (
        <Loading label="Loading services..." />
      ) : services.isError ? (
        <Alert tone="error">{errorMessage(services.error)}</Alert>
      ) : services.data.length === 0 ? (
        <p className="cs-muted">No services yet. Add the first one so customers can book it.</p>
      ) : (
        <table className="cs-table">
          <TableHead columns={['Name', 'Duration', 'Price', 'Available slots']} actions />
          <tbody>
            {services.data.map((s) =>
              editing === s.id ? (
                <tr key={s.id} className="cs-edit-row">
                  <td colSpan={5}>
                    <ServiceForm
                      companyId={companyId}
                      title={`Edit ${s.name}`}
                      initial={draftOf(s)}
                      saving={save.isPending}
                      onCancel={closeForm}
                      onSubmit={(input, done) => onSave(s.id, input, done)}
                    />
                  </td>
                </tr>
              ) : (
                <tr key={s.id}>
                  <th scope="row" className="cs-svc-name">
                    {s.name}
                    {serviceRules(s, staff.data ?? []) && <span className="cs-svc-meta">{serviceRules(s, staff.data ?? [])}</span>}
                  </th>
                  <td data-label="Duration">{s.duration_minutes} min</td>
                  <td data-label="Price">
                    {s.price === null || s.price === undefined ? '—' : money.format(Number(s.price))}
                    {s.hide_price && <span className="cs-tag">hidden</span>}
                  </td>
                  <td data-label="Slots">{s.available_slots ?? 1}</td>
                  <td className="cs-actions">
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      aria-label={`Edit ${s.name}`}
                      data-opens={s.id}
                      onClick={() => {
                        setStatus(null);
                        setEditing(s.id);
                      }}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm cs-danger"
                      aria-label={`Delete ${s.name}`}
                      disabled={remove.isPending}
                      onClick={() => onDelete(s)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ServiceForm({
  companyId,
  title,
  initial,
  saving,
  onCancel,
  onSubmit,
}: {
  companyId: number;
  title: string;
  initial: Draft;
  saving: boolean;
  onCancel: () => void;
  onSubmit: (input: ServiceTypeInput, done: (problem: string | null) => void) => void;
}) {
  const id = useId();
  const [d, setD] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const employees = useEmployees(companyId);
  const set = (patch: Partial<Draft>) => {
    setD((x) => ({ ...x, ...patch }));
    setProblem(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = serviceProblem(d);
    if (typeof checked === 'string') return setProblem(checked);
    onSubmit(checked, setProblem);
  };

  return (
    <form className="cs-svc-form" onSubmit={submit} noValidate aria-label={title} onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <h3>{title}</h3>
      <div className="cs-svc-grid">
        <TextField
          label="Service name"
          id={`${id}-name`}
          className="cs-svc-wide"
          value={d.name}
          onValueChange={(name) => set({ name })}
          autoFocus
        />
        <CountField label="Duration (minutes)" id={`${id}-dur`} value={d.duration} onValueChange={(duration) => set({ duration })} />
        <TextField
          label="Price (USD, optional)"
          id={`${id}-price`}
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          value={d.price}
          onValueChange={(price) => set({ price })}
        />
        <CountField
          label="Available slots"
          id={`${id}-slots`}
          hint="How many customers can book it at the same time."
          value={d.slots}
          onValueChange={(slots) => set({ slots })}
        />
        <BufferField
          label="Buffer before (minutes)"
          id={`${id}-bb`}
          hint="Preparation time held before it; customers do not see it."
          value={d.bufferBefore}
          onValueChange={(bufferBefore) => set({ bufferBefore })}
        />
        <BufferField
          label="Buffer after (minutes)"
          id={`${id}-ba`}
          hint="Cleanup time held after it; customers do not see it."
          value={d.bufferAfter}
          onValueChange={(bufferAfter) => set({ bufferAfter })}
        />
      </div>
      <fieldset className="cs-fieldset">
        <legend className="field-label">Performed by</legend>
        <p className="hint cs-hint">Customers can book it only with the people ticked. Nobody ticked: every staff member.</p>
        {employees.isPending ? (
          <p className="cs-muted">Loading staff...</p>
        ) : employees.isError ? (
          <Alert tone="error">{errorMessage(employees.error)}</Alert>
        ) : (
          <div className="cs-chips">
            {employees.data.map((e) => {
              const on = d.employeeIds.includes(e.id);
              return (
                <label key={e.id} className={`cs-chip${on ? ' on' : ''}`}>
                  <input
                    type="checkbox"
                    checked={on}
                    onChange={(ev) =>
                      set({ employeeIds: ev.target.checked ? [...d.employeeIds, e.id] : d.employeeIds.filter((x) => x !== e.id) })
                    }
                  />
                  <span>{e.name}</span>
                </label>
              );
            })}
          </div>
        )}
      </fieldset>
      <label className="checkbox cs-check">
        <input type="checkbox" checked={d.hidePrice} onChange={(e) => set({ hidePrice: e.target.checked })} />
        <span>Hide price from customers</span>
      </label>
      {problem && <Alert tone="error">{problem}</Alert>}
      <div className="cs-form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save Service'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Whole minutes from 0 to 240. */
function BufferField(props: { label: string; id: string; hint: string; value: string; onValueChange: (value: string) => void }) {
  return <TextField {...props} type="number" inputMode="numeric" min={0} max={MAX_BUFFER_MINUTES} step={1} />;
}

/** A whole number of at least 1 (minutes, places). */
function CountField(props: { label: string; id: string; hint?: string; value: string; onValueChange: (value: string) => void }) {
  return <TextField {...props} type="number" inputMode="numeric" min={1} step={1} />;
}
