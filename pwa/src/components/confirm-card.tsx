// The centred card of a page that confirms something happened (a booking, a checkout's return):
// a round icon, the heading, one line, then whatever the page adds (a summary, its buttons).
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CheckIcon, CrossIcon } from './status-icons.tsx';
import './confirm-card.css';

export function ConfirmCard({
  tone = 'success',
  title,
  text,
  children,
}: {
  /** `success` shows a check on green, `neutral` a cross on grey. */
  tone?: 'success' | 'neutral';
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <div className="page-narrow">
      <div className="card confirm-card">
        <div className={tone === 'neutral' ? 'confirm-icon neutral' : 'confirm-icon'}>
          {tone === 'neutral' ? <CrossIcon /> : <CheckIcon />}
        </div>
        <h1>{title}</h1>
        <p>{text}</p>
        {children}
      </div>
    </div>
  );
}

/** The card's one main way on. */
export function ConfirmAction({ to, children }: { to: string; children: ReactNode }) {
  return (
    <div className="confirm-actions">
      <Link to={to} className="btn btn-primary">
        {children}
      </Link>
    </div>
  );
}
