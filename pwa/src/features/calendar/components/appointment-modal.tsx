// The appointment modal (docs/product/02-screens.md, "Appointment modal (create or edit)"; docs/product/05-validation.md and 08-errors.md):
// the dialog shell around the form (appointment-form.tsx) and its footer (appointment-modal-footer.tsx).
//
// Cross-feature use: the Directory opens this modal with a customer prefilled
// (`initial.customerId`). That is the one import another feature may make from calendar/.
import { useId, useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import type { AppointmentModalInitial } from '../appointment-values.ts';
import type { SavedResult } from '../hooks/use-appointment-form.ts';
import { AppointmentForm } from './appointment-form.tsx';
import { ModalFooter, type FooterState } from './appointment-modal-footer.tsx';
import './appointment-modal.css';

export interface AppointmentModalProps {
  open: boolean;
  onClose: () => void;
  initial?: AppointmentModalInitial;
  /** Called after a successful create, update or delete (before the modal closes). */
  onSaved?: (result: SavedResult) => void;
}

export function AppointmentModal({ open, onClose, initial, onSaved }: AppointmentModalProps) {
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const editing = !!initial?.appointment;
  const [footer, setFooter] = useState<FooterState>({ mode: 'buttons', disabled: true });

  return (
    <Modal
      open={open}
      onClose={onClose}
      busy={busy}
      size="lg"
      title={editing ? 'Edit Appointment' : 'Create Appointment'}
      className="appointment-modal"
      footer={<ModalFooter formId={formId} editing={editing} state={footer} onCancel={onClose} />}
    >
      <AppointmentForm
        formId={formId}
        initial={initial}
        onClose={onClose}
        onSaved={onSaved}
        onBusyChange={setBusy}
        onFooterChange={setFooter}
      />
    </Modal>
  );
}
