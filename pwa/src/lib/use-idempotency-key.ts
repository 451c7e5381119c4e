// One Idempotency-Key per attempt at a write: the same request sent again after an answer that
// left its fate unknown (no response, 5xx, "still in progress") reuses the key, so the server
// applies it once; a changed request, or one sent after a success or a refusal, is a new attempt.
import { useRef } from 'react';
import { newIdempotencyKey } from './api-client.ts';

/** The attempt logic without React, so it can be tested and kept in any holder. */
export class IdempotencyAttempts {
  private last: { request: string; key: string; resendable: boolean } | null = null;
  private sending = false;

  /**
   * Claims the send: false while one is out, until `succeeded` or `failed`. React's disabled
   * button and state come a render late, so clicks in the same instant each reached the submit
   * handler and each booked (found using the app: three clicks, three appointments).
   */
  begin(): boolean {
    if (this.sending) return false;
    this.sending = true;
    return true;
  }

  /** The key to send `request` (a body, or any value naming the write) with. */
  keyFor(request: unknown): string {
    const text = typeof request === 'string' ? request : JSON.stringify(request);
    const last = this.last;
    if (last && last.resendable && last.request === text) return last.key;
    const key = newIdempotencyKey();
    this.last = { request: text, key, resendable: false };
    return key;
  }

  /**
   * The last send failed. `resendable`: the server may or may not have applied it (no answer,
   * 5xx, still in progress), so sending the same request again must reuse its key.
   */
  failed(resendable: boolean): void {
    this.sending = false;
    if (!this.last) return;
    if (resendable) this.last.resendable = true;
    else this.last = null;
  }

  /** The last send succeeded: whatever comes next is a new attempt. */
  succeeded(): void {
    this.sending = false;
    this.last = null;
  }
}

/** The component's attempts (kept across renders). */
export function useIdempotencyKey(): IdempotencyAttempts {
  const attempts = useRef<IdempotencyAttempts | null>(null);
  attempts.current ??= new IdempotencyAttempts();
  return attempts.current;
}
