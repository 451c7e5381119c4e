// An inline message box; errors are announced to screen readers at once, others politely.
import type { ReactNode } from 'react';

export function Alert({
  tone,
  children,
  onDismiss,
  className,
}: {
  tone: 'error' | 'success' | 'warn' | 'info';
  children: ReactNode;
  onDismiss?: () => void;
  className?: string;
}) {
  return (
    <div className={`alert alert-${tone}${className ? ` ${className}` : ''}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="alert-text">{children}</div>
      {onDismiss && (
        <button type="button" className="alert-close" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}
