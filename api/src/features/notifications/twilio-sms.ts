// Texts through Twilio's REST API with fetch (no SDK), as docs/decisions/22-messaging.md ("SMS and
// phone numbers") describes: POST {TWILIO_API_URL}/2010-04-01/Accounts/{sid}/Messages.json,
// form-encoded To (E.164), From and Body, HTTP Basic auth with the account SID and auth token.
//
// What an answer means for the dispatcher (delivery-error.ts):
// - 2xx: sent.
// - 5xx, a network error or no answer within the timeout: a plain Error, retried with backoff.
// - any 4xx, 429 ("too many requests") included: a DeliveryError that is permanent (the message is
//   dead at once, as the messaging contract says of every 4xx), carrying Twilio's own message and
//   code so the outbox list shows the reason; an admin's retry puts it back to pending;
// - code 21610 ("Attempt to send to unsubscribed recipient": the customer replied STOP): a
//   DeliveryError with optOut, so the customer is marked opted out and gets no SMS again.
import type { Config } from '../../config.ts';
import type { SmsSender } from './dispatcher.service.ts';
import { DeliveryError } from './delivery-error.ts';

/** Twilio's error code for a recipient who replied STOP. */
export const TWILIO_UNSUBSCRIBED = 21610;

/**
 * How long one request may take. Well inside the dispatcher's send deadline and claim lease, so a
 * slow Twilio turns into a retry rather than a lost claim.
 */
export const TWILIO_TIMEOUT_MS = 15_000;

export type TwilioConfig = Pick<Config, 'TWILIO_API_URL' | 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_FROM'>;

/** The parts of Twilio's error body we use (https://www.twilio.com/docs/usage/twilios-response). */
interface TwilioErrorBody {
  code?: number;
  message?: string;
}

async function readError(res: Response): Promise<TwilioErrorBody> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as TwilioErrorBody;
    return {
      code: typeof body.code === 'number' ? body.code : undefined,
      message: typeof body.message === 'string' ? body.message : undefined,
    };
  } catch {
    return { message: text.slice(0, 200) || undefined };
  }
}

/** The Messages endpoint of the account: TWILIO_API_URL may carry a path prefix (a proxy), never a trailing slash. */
export function twilioMessagesUrl(config: TwilioConfig): string {
  const base = config.TWILIO_API_URL.replace(/\/+$/, '');
  return `${base}/2010-04-01/Accounts/${encodeURIComponent(config.TWILIO_ACCOUNT_SID ?? '')}/Messages.json`;
}

export function createTwilioSms(config: TwilioConfig, opts: { timeoutMs?: number } = {}): SmsSender {
  const { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token, TWILIO_FROM: from } = config;
  // config.ts refuses SMS_PROVIDER=twilio without these; a direct caller gets the same rule.
  if (!sid || !token || !from) throw new Error('Twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM');
  const url = twilioMessagesUrl(config);
  const authorization = `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
  const timeoutMs = opts.timeoutMs ?? TWILIO_TIMEOUT_MS;

  return {
    async send(to: string, text: string): Promise<void> {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { authorization, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: to, From: from, Body: text }).toString(),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (err) {
        const e = err as Error;
        // Retried: nothing says Twilio took it (the error never carries the credentials).
        if (e.name === 'TimeoutError') throw new Error(`Twilio did not answer within ${timeoutMs / 1000} s`);
        const cause = (e.cause as { code?: string } | undefined)?.code;
        throw new Error(`Twilio could not be reached: ${cause ?? e.message}`);
      }
      if (res.ok) {
        await res.body?.cancel();
        return;
      }
      const { code, message } = await readError(res);
      const reason = `Twilio answered ${res.status}${code !== undefined ? `, error ${code}` : ''}${message ? `: ${message}` : ''}`;
      if (res.status >= 500) throw new Error(reason);
      if (code === TWILIO_UNSUBSCRIBED)
        throw new DeliveryError(`${reason} (the recipient replied STOP)`, { permanent: true, optOut: true, providerCode: code });
      throw new DeliveryError(reason, { permanent: true, providerCode: code ?? null });
    },
  };
}
