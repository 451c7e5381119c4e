// The strip under the signed-in header that tells the person about their offline changes: the
// offline line, how many changes wait to sync, the 401 notice, and the "Needs attention" list of
// changes the server refused, each with the choices that make sense (docs/decisions/08-offline-pwa.md).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../lib/auth.tsx';
import { useStore } from '../../lib/store.ts';
import { useOnline } from '../../lib/use-online.ts';
import { addMinutesWall, browserZone, isKnownZone, toWallTime, zonedTimeToUtc } from '../../lib/zoned-time.ts';
import { useCompany } from '../../data/companies.ts';
import { useOutboxStatus, useResolveChange, type RefusedChange } from '../../data/outbox.ts';
import type { Appointment } from '../../data/appointments.ts';
import { ChangeList } from '../appointment-change-list.tsx';
import {
  CHOICE_LABELS,
  NEEDS_ATTENTION_TEXT,
  OFFLINE_TEXT,
  SIGN_IN_TO_SEND_TEXT,
  changeTitle,
  choiceHint,
  heldBehindText,
  pausedText,
  refusalView,
  waitingText,
  type Choice,
} from './offline-texts.ts';
import { attentionTrayOpen } from './attention-tray.ts';
import './offline-strip.css';

/** "Pick another time": a date and a start time in the company's zone; the length stays the same. */
function PickTimeForm({ change, zone, onDone }: { change: RefusedChange; zone: string; onDone: () => void }) {
  const start = change.appointment?.start_time;
  const end = change.appointment?.end_time;
  const initial = start ? toWallTime(start, zone) : null;
  const [date, setDate] = useState(initial?.date ?? '');
  const [time, setTime] = useState(initial?.time ?? '');
  const [busy, setBusy] = useState(false);
  const resolve = useResolveChange();
  const id = useId();
  const minutes = start && end ? Math.round((new Date(end).getTime() - new Date(start).getTime()) / 60_000) : 30;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!date || !time) return;
    setBusy(true);
    const startAt = zonedTimeToUtc(date, time, zone);
    const endAt = addMinutesWall(date, time, minutes, zone).instant;
    try {
      await resolve(change.seq, { choice: 'pickAnotherTime', times: { start_time: startAt.toISOString(), end_time: endAt.toISOString() } });
      onDone();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="offline-pick" onSubmit={(e) => void onSubmit(e)}>
      <div className="offline-pick-fields">
        <label htmlFor={`${id}-date`}>
          Date
          <input id={`${id}-date`} className="input" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        </label>
        <label htmlFor={`${id}-time`}>
          Start time
          <input
            id={`${id}-time`}
            className="input"
            type="time"
            required
            step={300}
            value={time}
            onChange={(e) => setTime(e.target.value)}
          />
        </label>
      </div>
      <div className="offline-choices">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Send at this time
        </button>
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function RefusedItem({ change, zone }: { change: RefusedChange; zone: string }) {
  const { text, choices } = refusalView(change.kind, change.refusal.status, change.refusal.message);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const resolve = useResolveChange();
  const titleId = useId();

  const choose = async (choice: Choice) => {
    if (choice === 'pickAnotherTime') return setPicking(true);
    setBusy(true);
    try {
      await resolve(change.seq, { choice });
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="offline-item" aria-labelledby={titleId} data-testid="refused-change">
      <p id={titleId} className="offline-item-title">
        {changeTitle(change.kind, change.appointment, zone)}
      </p>
      <p className="offline-item-text">{text}</p>
      {change.heldBehind > 0 && (
        <p className="offline-item-text" data-testid="held-behind">
          {heldBehindText(change.heldBehind)}
        </p>
      )}
      {/* Changed elsewhere (412): what the other person changed, to choose between theirs and mine. */}
      {change.refusal.status === 412 && change.before && change.refusal.current && (
        <div className="offline-item-changes">
          <ChangeList
            mine={change.before as Appointment}
            theirs={change.refusal.current as Appointment}
            zone={zone}
            customers={[]}
            staff={[]}
          />
        </div>
      )}
      {picking ? (
        <PickTimeForm change={change} zone={zone} onDone={() => setPicking(false)} />
      ) : (
        <div className="offline-choices">
          {choices.map((choice, i) => (
            <button
              key={choice}
              type="button"
              className={`btn ${i === 0 ? 'btn-primary' : 'btn-secondary'}`}
              title={choiceHint(choice, change.refusal.status, change.heldBehind)}
              disabled={busy}
              onClick={() => void choose(choice)}
            >
              {CHOICE_LABELS[choice]}
            </button>
          ))}
        </div>
      )}
    </li>
  );
}

export function OfflineStrip() {
  const { user } = useAuth();
  const company = useCompany(user?.company_id ?? null);
  const zone = isKnownZone(company.data?.timezone) ? company.data!.timezone : browserZone();
  const online = useOnline();
  const { pending, retrying, refused, paused } = useOutboxStatus();
  // Open from the button here, or from a refused change's event in the calendar (attention-tray.ts).
  const open = useStore(attentionTrayOpen);
  const setOpen = attentionTrayOpen.set;
  const trayId = useId();
  const trayTitleId = useId();
  const trayRef = useRef<HTMLElement>(null);

  const offline = !online || (retrying && !paused);
  // The list closes once every refused change is settled, so the next refusal starts closed; and
  // with the strip (signing out), so the next person's starts closed too.
  useEffect(() => {
    if (open && refused.length === 0) setOpen(false);
  }, [open, refused.length, setOpen]);
  useEffect(() => () => setOpen(false), [setOpen]);
  const showTray = open && refused.length > 0;
  // Opened from below (a calendar event), the list may be off screen: bring it into view.
  useEffect(() => {
    if (showTray) trayRef.current?.scrollIntoView({ block: 'nearest' });
  }, [showTray]);
  if (!offline && pending === 0 && refused.length === 0 && !paused) return null;

  return (
    <div className="offline-strip" data-testid="offline-strip">
      <div className="offline-strip-row">
        <div className="offline-strip-status" role="status" aria-live="polite">
          {offline && (
            <span className="offline-badge" data-testid="offline-indicator">
              <span className="offline-dot" aria-hidden="true" />
              {OFFLINE_TEXT}
            </span>
          )}
          {pending > 0 && !paused && (
            <span className="offline-count" data-testid="outbox-count">
              {waitingText(pending)}
            </span>
          )}
        </div>
        {refused.length > 0 && (
          <button
            type="button"
            className="btn btn-secondary offline-attention-btn"
            aria-expanded={showTray}
            aria-controls={trayId}
            aria-label={`${NEEDS_ATTENTION_TEXT}, ${refused.length === 1 ? '1 change' : `${refused.length} changes`}`}
            onClick={() => setOpen((o) => !o)}
          >
            {NEEDS_ATTENTION_TEXT}
            <span className="offline-attention-count" aria-hidden="true">
              {refused.length}
            </span>
          </button>
        )}
      </div>
      {paused && (
        <div className="offline-paused alert alert-warn" role="status" data-testid="outbox-paused">
          <div className="alert-text">
            <strong>{SIGN_IN_TO_SEND_TEXT}</strong> {pausedText(pending)}
          </div>
          <Link to="/login" className="btn btn-primary">
            Sign in
          </Link>
        </div>
      )}
      {showTray && (
        <section ref={trayRef} id={trayId} className="offline-tray" aria-labelledby={trayTitleId}>
          <div className="offline-tray-head">
            <h2 id={trayTitleId} className="offline-tray-title">
              {NEEDS_ATTENTION_TEXT}
            </h2>
            <button type="button" className="alert-close" aria-label="Close" onClick={() => setOpen(false)}>
              ×
            </button>
          </div>
          <p className="offline-tray-intro">The server could not apply these changes. Choose what to do with each one.</p>
          <ul className="offline-list">
            {refused.map((change) => (
              <RefusedItem key={change.seq} change={change} zone={zone} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
