// The global dismissible banner for API errors (docs/product/02-screens.md). Anything may report to it;
// <ErrorBanner/> in the app shell shows the latest message.
import { createStore, useStore } from './store.ts';
import { errorMessage } from './api-errors.ts';

export const errorBanner = createStore<string | null>(null);

/** Shows `message` (a text, or an error turned into its text from docs/product/08-errors.md). */
export function showError(messageOrError: unknown): void {
  errorBanner.set(typeof messageOrError === 'string' ? messageOrError : errorMessage(messageOrError));
}

export function dismissError(): void {
  errorBanner.set(null);
}

export function useErrorBanner(): string | null {
  return useStore(errorBanner);
}
