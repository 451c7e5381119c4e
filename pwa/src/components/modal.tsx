// A modal dialog on the native <dialog> opened with showModal(): the browser makes the rest of
// the page inert (focus stays inside) and turns Escape into a 'cancel' event. Here Escape, the
// header's close button and any Cancel button the caller renders all go through `onClose`, so the
// parent's `open` state stays the single truth. Focus returns to the element that opened it.
//
//   <Modal open={open} onClose={() => setOpen(false)} title="Create Appointment"
//          footer={<button className="btn btn-secondary" onClick={() => setOpen(false)}>Cancel</button>}>
//     ...form...
//   </Modal>
//
// The children are mounted only while open, so a form inside starts fresh each time.
import { useEffect, useId, useLayoutEffect, useRef, type MouseEvent, type ReactNode, type RefObject } from 'react';
import './modal.css';

export interface ModalProps {
  open: boolean;
  /** Called on Escape, on the close button and on a backdrop click (when allowed). */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons row at the bottom (Cancel, Save ...), kept visible while the body scrolls. */
  footer?: ReactNode;
  /** Optional line under the title. */
  description?: ReactNode;
  /** 'md' (default, ~560px) or 'lg' (~760px); always full width on phones. */
  size?: 'sm' | 'md' | 'lg';
  /** Clicking outside the box closes it; off by default so a half-filled form is not lost. */
  closeOnBackdrop?: boolean;
  /** While true (saving, say), Escape and the close button do nothing. */
  busy?: boolean;
  /** Element to focus first; default: the first field in the body, else the dialog itself. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  className?: string;
}

// While a modal is open the page behind must not scroll (touch scrolling ignores overflow:hidden
// on iOS): the body is pinned with position:fixed at its scroll offset, and put back on close.
let locks = 0;
let savedScrollY = 0;

function lockScroll(): void {
  if (locks++ > 0) return;
  savedScrollY = window.scrollY;
  const body = document.body;
  body.style.position = 'fixed';
  body.style.top = `-${savedScrollY}px`;
  body.style.left = '0';
  body.style.right = '0';
  // Bottom and overflow clip the page to the screen, so nothing behind extends past it.
  body.style.bottom = '0';
  body.style.overflow = 'hidden';
  document.documentElement.classList.add('modal-open');
}

function unlockScroll(): void {
  if (--locks > 0) return;
  locks = 0;
  const body = document.body;
  body.style.position = '';
  body.style.top = '';
  body.style.left = '';
  body.style.right = '';
  body.style.bottom = '';
  body.style.overflow = '';
  document.documentElement.classList.remove('modal-open');
  window.scrollTo(0, savedScrollY);
}

const FOCUSABLE =
  'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  description,
  size = 'md',
  closeOnBackdrop = false,
  busy = false,
  initialFocusRef,
  className,
}: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const openerRef = useRef<Element | null>(null);
  const titleId = useId();
  const descId = useId();
  const onCloseRef = useRef(onClose);
  const busyRef = useRef(busy);
  onCloseRef.current = onClose;
  busyRef.current = busy;

  // Open/close the native dialog with `open`; remember and restore the opener's focus.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement;
      dialog.showModal();
      const first = initialFocusRef?.current ?? bodyRef.current?.querySelector<HTMLElement>(FOCUSABLE) ?? dialog;
      first.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, initialFocusRef]);

  useEffect(() => {
    if (!open) return;
    const dialog = dialogRef.current;
    lockScroll();
    return () => {
      // Closed by the parent, or unmounted while open.
      if (dialog?.open) dialog.close();
      unlockScroll();
      const opener = openerRef.current;
      openerRef.current = null;
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
    };
  }, [open]);

  // Escape: the browser fires 'cancel'; keep the dialog open and let the parent decide.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (!busyRef.current) onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => dialog.removeEventListener('cancel', onCancel);
  }, []);

  const onDialogClick = (e: MouseEvent<HTMLDialogElement>) => {
    if (!closeOnBackdrop || busy || e.target !== e.currentTarget) return;
    // A click on the ::backdrop lands on the dialog element itself, outside its box.
    const r = e.currentTarget.getBoundingClientRect();
    const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    if (!inside) onClose();
  };

  return (
    <dialog
      ref={dialogRef}
      className={`modal modal-${size}${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onClick={onDialogClick}
    >
      {open && (
        <div className="modal-frame">
          <header className="modal-header">
            <div className="modal-heading">
              <h2 id={titleId} className="modal-title">
                {title}
              </h2>
              {description && (
                <p id={descId} className="modal-description">
                  {description}
                </p>
              )}
            </div>
            <button type="button" className="modal-close" aria-label="Close" disabled={busy} onClick={() => onClose()}>
              <span aria-hidden="true">×</span>
            </button>
          </header>
          <div ref={bodyRef} className="modal-body">
            {children}
          </div>
          {footer && <footer className="modal-footer">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}
