// What the offline strip and the "Needs attention" list say: the offline line, the count of changes
// waiting, and for each change the server refused, what happened and which choices make sense
// (docs/decisions/08-offline-pwa.md). Pure functions, no React.
import { formatDate, formatWallTime, toWallTime } from '../../lib/zoned-time.ts';

// Only appointment changes are queued offline (docs/decisions/08-offline-pwa.md): settings and people need the server.
export const OFFLINE_TEXT = 'Offline: appointment changes are saved on this device';
export const NEEDS_ATTENTION_TEXT = 'Needs attention';
export const SIGN_IN_TO_SEND_TEXT = 'Sign in to send your changes';

/** "1 change waiting to sync", "3 changes waiting to sync". */
export function waitingText(count: number): string {
  return `${count} ${count === 1 ? 'change' : 'changes'} waiting to sync`;
}

/** The 401 notice: the changes stay on this device until the same person signs in again. */
export function pausedText(count: number): string {
  return count === 1
    ? 'Your change is kept on this device and will be sent once you sign in again.'
    : `Your ${count} changes are kept on this device and will be sent once you sign in again.`;
}

/**
 * The sign-in page, when a 401 signed out the person whose changes wait on this device (or they
 * signed out with changes queued). Whoever signs in reads it; only the author's sign-in sends them.
 * Changes the server already refused are not sent then: they wait for that person's choice, and so
 * do the later changes to the same appointments (`held`).
 */
export function waitingForSignInText(count: number, refused = 0, held = 0): string {
  const parts: string[] = [];
  if (count > 0)
    parts.push(
      count === 1
        ? '1 change made on this device is waiting and will be sent once the person who made it signs in again.'
        : `${count} changes made on this device are waiting and will be sent once the person who made them signs in again.`,
    );
  if (refused > 0)
    parts.push(
      refused === 1
        ? '1 change the server refused waits for the person who made it to choose what to do.'
        : `${refused} changes the server refused wait for the person who made them to choose what to do.`,
    );
  if (held > 0)
    parts.push(
      held === 1
        ? '1 later change to the same appointment waits for that choice too.'
        : `${held} later changes to the same appointments wait for that choice too.`,
    );
  return parts.join(' ');
}

export type Choice = 'pickAnotherTime' | 'applyAgain' | 'keepTheirs' | 'discard';

export const CHOICE_LABELS: Record<Choice, string> = {
  pickAnotherTime: 'Pick another time',
  applyAgain: 'Apply my change again',
  keepTheirs: 'Keep theirs',
  discard: 'Discard',
};

export type ChangeKind = 'create' | 'update' | 'delete';

const KIND_LABELS: Record<ChangeKind, string> = {
  create: 'New appointment',
  update: 'Change to an appointment',
  delete: 'Deleted appointment',
};

/** The appointment a change is about, as far as the device knows it. */
export interface ChangeSubject {
  customer_name?: string | null;
  start_time?: string;
}

/** "New appointment: Liam Smith, Tue, Nov 24, 2026 at 10:00 AM". */
export function changeTitle(kind: ChangeKind, subject: ChangeSubject | undefined, zone: string): string {
  const parts: string[] = [];
  if (subject?.customer_name) parts.push(subject.customer_name);
  if (subject?.start_time) {
    const wall = toWallTime(subject.start_time, zone);
    parts.push(`${formatDate(wall.date)} at ${formatWallTime(wall.time)}`);
  }
  return parts.length > 0 ? `${KIND_LABELS[kind]}: ${parts.join(', ')}` : KIND_LABELS[kind];
}

/** What happened to a refused change, in the front desk's words, and the choices that make sense for it. */
export function refusalView(kind: ChangeKind, status: number, message?: string): { text: string; choices: Choice[] } {
  switch (status) {
    case 409:
      return kind === 'delete'
        ? { text: 'The server could not delete this appointment.', choices: ['discard'] }
        : { text: 'This time is taken by another appointment.', choices: ['pickAnotherTime', 'discard'] };
    case 412:
      return {
        text:
          kind === 'delete'
            ? 'Someone else changed this appointment before your deletion was sent.'
            : 'Someone else changed this appointment before your change was sent.',
        choices: ['applyAgain', 'keepTheirs'],
      };
    case 404:
      // One choice for an edit of a deleted appointment: "Discard" did what "Keep theirs" does, save
      // that edits queued after it stayed, to come back refused in turn (docs/decisions/08-offline-pwa.md).
      return kind === 'update'
        ? { text: 'Someone else deleted this appointment before your change was sent.', choices: ['keepTheirs'] }
        : { text: 'This appointment no longer exists.', choices: ['discard'] };
    case 403:
      return { text: 'You are no longer allowed to make this change.', choices: ['discard'] };
    default:
      return {
        text: message ? `The server did not accept this change: ${message}` : 'The server did not accept this change.',
        choices: ['discard'],
      };
  }
}

/**
 * My later changes of the same appointment, held back until this one is settled: they are not
 * "waiting to sync", and "Keep theirs" drops them too (docs/decisions/08-offline-pwa.md).
 */
export function heldBehindText(held: number): string {
  return held === 1
    ? 'Your later change to this appointment waits for this choice.'
    : `Your ${held} later changes to this appointment wait for this choice.`;
}

/** What each choice does, for the button's accessible description; `held`: my later changes of it. */
export function choiceHint(choice: Choice, status: number, held = 0): string {
  const yours = held > 0 ? 'your changes' : 'your change';
  switch (choice) {
    case 'pickAnotherTime':
      return 'Send your change again at a time you choose.';
    case 'applyAgain':
      return 'Send your change again, over theirs.';
    case 'keepTheirs':
      return status === 404 ? `Accept the deletion and drop ${yours}.` : `Drop ${yours} and keep the appointment as they left it.`;
    case 'discard':
      return 'Drop your change.';
  }
}
