// The appointment modal's footer: its buttons live outside the scrolling body, tied to the form by
// id, and follow the form's state (FooterState), including the delete confirmation.
import { useEffect, useRef } from 'react';

export type FooterState =
  | { mode: 'buttons'; disabled: boolean; saving?: boolean; deleting?: boolean; onDelete?: () => void }
  | { mode: 'confirm-delete'; onConfirm: () => void; onKeep: () => void; deleting: boolean };

export function ModalFooter({
  formId,
  editing,
  state,
  onCancel,
}: {
  formId: string;
  editing: boolean;
  state: FooterState;
  onCancel: () => void;
}) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (state.mode === 'confirm-delete') keepRef.current?.focus();
  }, [state.mode]);

  if (state.mode === 'confirm-delete') {
    return (
      <div className="appt-confirm" role="group" aria-labelledby={`${formId}-confirm`}>
        <p id={`${formId}-confirm`} className="appt-confirm-text">
          Delete this appointment? This cannot be undone.
        </p>
        <div className="appt-footer-buttons">
          <button ref={keepRef} type="button" className="btn btn-secondary" onClick={state.onKeep} disabled={state.deleting}>
            Keep Appointment
          </button>
          <button type="button" className="btn btn-danger" onClick={state.onConfirm} disabled={state.deleting}>
            {state.deleting ? 'Deleting...' : 'Yes, Delete'}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="appt-footer-buttons">
      {editing && state.onDelete && (
        <button type="button" className="btn btn-danger-outline appt-delete" onClick={state.onDelete} disabled={state.disabled}>
          Delete Appointment
        </button>
      )}
      <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={state.saving || state.deleting}>
        Cancel
      </button>
      <button type="submit" form={formId} className="btn btn-primary" disabled={state.disabled}>
        {state.saving ? 'Saving...' : editing ? 'Update Appointment' : 'Create Appointment'}
      </button>
    </div>
  );
}
