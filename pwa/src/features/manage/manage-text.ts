// The self-service page's texts (docs/decisions/23-self-service.md), in one place for the page and its tests.
export const MANAGE_TEXT = {
  title: 'Your appointment',
  loading: 'Loading your appointment...',
  invalidTitle: 'This link is not valid any more',
  invalidText:
    'The appointment may have ended or been removed, or the link was copied incompletely. Please use the link in your latest email, or contact the business.',
  loadFailed: 'Your appointment could not be loaded.',
  offline: 'You are offline. Changing your appointment needs an internet connection: nothing has been changed. Connect and try again.',
  cancelled: 'This appointment is cancelled.',
  started: 'This appointment has started, so it can no longer be changed here.',
  cancel: 'Cancel appointment',
  cancelConfirm: 'Cancel this appointment? The time is given back and cannot be reserved for you again.',
  cancelYes: 'Yes, cancel it',
  cancelNo: 'Keep it',
  cancelledNow: 'Your appointment is cancelled. A confirmation email is on its way.',
  reschedule: 'Reschedule',
  rescheduleTitle: 'Choose a new time',
  rescheduleSubmit: 'Move appointment',
  rescheduleClose: 'Keep the current time',
  movedNow: 'Your appointment has moved. A confirmation email with the new time is on its way.',
  slotTaken: 'This time was just taken. Please choose another one.',
  bookAgain: 'Book a new appointment',
} as const;

/**
 * No other time free: how far the page looked is the company's booking window (booking_window_days,
 * docs/decisions/27-scheduling-rules.md), not a fixed 30 days.
 */
export function noDatesText(windowDays: number): string {
  return windowDays === 1 ? 'No other times are available today.' : `No other times are available in the next ${windowDays} days.`;
}
