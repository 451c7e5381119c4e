// Whether the "Needs attention" list is open, shared by the offline strip that shows it and the
// calendar, whose event of a refused change opens it: such a change is settled by its choices there,
// not edited again in the appointment form, where a new edit would only queue behind the refused one
// and never be sent (docs/decisions/08-offline-pwa.md).
import { createStore } from '../../lib/store.ts';

export const attentionTrayOpen = createStore<boolean>(false);

export function openAttentionTray(): void {
  attentionTrayOpen.set(true);
}
