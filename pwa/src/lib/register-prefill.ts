// What the booking page hands the customer sign-up after an anonymous booking: the name and email
// just typed, carried in the history state rather than the address (no personal data in URLs).
export interface RegisterPrefillState {
  prefill: { name: string; email: string };
}

/** The prefill in a location's state, or empty fields when there is none (typed by hand, reloaded). */
export function registerPrefill(state: unknown): { name: string; email: string } {
  const prefill = (state as Partial<RegisterPrefillState> | null)?.prefill;
  return {
    name: typeof prefill?.name === 'string' ? prefill.name : '',
    email: typeof prefill?.email === 'string' ? prefill.email : '',
  };
}
