// A local stand-in for Twilio's Messages API over real HTTP, for SMS tests: it records every request
// (path, form fields, Authorization) and answers as Twilio does, or as a test tells it to (a 500, a
// 400 with Twilio's error body, 21610 for a recipient who replied STOP, or no answer at all).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TwilioRequest {
  method: string;
  path: string;
  /** The form-encoded body, decoded (To, From, Body). */
  form: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  /** The Basic credentials, decoded; null when the header is missing or not Basic. */
  basic: { user: string; password: string } | null;
}

/** What the fake answers to one request. */
export type TwilioAnswer =
  | { kind: 'ok' }
  | { kind: 'error'; status: number; code?: number; message?: string }
  /** Reads the request and never answers (the client's timeout fires). */
  | { kind: 'hang' };

export const twilioAnswers = {
  ok: { kind: 'ok' } as TwilioAnswer,
  serverError: { kind: 'error', status: 500, code: 20500, message: 'Internal Server Error' } as TwilioAnswer,
  invalidNumber: { kind: 'error', status: 400, code: 21211, message: "The 'To' number is not a valid phone number." } as TwilioAnswer,
  unsubscribed: { kind: 'error', status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' } as TwilioAnswer,
  hang: { kind: 'hang' } as TwilioAnswer,
};

export interface FakeTwilio {
  /** The base URL to use as TWILIO_API_URL. */
  url: string;
  /** Every request received, in order (answered or not). */
  requests: TwilioRequest[];
  /** The requests that were answered 2xx: the texts Twilio "sent". */
  sent: TwilioRequest[];
  /** Answers for the next requests, in order; afterwards every request gets `ok`. */
  answerNext(...answers: TwilioAnswer[]): void;
  /** Answers every request to this number (`To`) so, whatever the queue says (a recipient who replied STOP). */
  answerFor(to: string, answer: TwilioAnswer): void;
  /** Resolves once `n` requests have arrived, waiting up to `timeoutMs`. */
  waitForRequests(n: number, timeoutMs?: number): Promise<TwilioRequest[]>;
  close(): Promise<void>;
}

function parseBasic(header: string | undefined): TwilioRequest['basic'] {
  const m = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? null : { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

export async function startFakeTwilio(): Promise<FakeTwilio> {
  const requests: TwilioRequest[] = [];
  const sent: TwilioRequest[] = [];
  const queue: TwilioAnswer[] = [];
  const perNumber = new Map<string, TwilioAnswer>();
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const request: TwilioRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        form,
        contentType: req.headers['content-type'],
        authorization: req.headers.authorization,
        basic: parseBasic(req.headers.authorization),
      };
      requests.push(request);
      const answer = perNumber.get(form.To ?? '') ?? queue.shift() ?? twilioAnswers.ok;
      if (answer.kind === 'hang') return; // the socket is closed by close() or the client
      res.setHeader('content-type', 'application/json');
      if (answer.kind === 'error') {
        res.statusCode = answer.status;
        res.end(
          JSON.stringify({
            code: answer.code,
            message: answer.message,
            more_info: `https://www.twilio.com/docs/errors/${answer.code}`,
            status: answer.status,
          }),
        );
        return;
      }
      counter += 1;
      sent.push(request);
      res.statusCode = 201;
      res.end(
        JSON.stringify({ sid: `SM${String(counter).padStart(32, '0')}`, status: 'queued', to: form.To, from: form.From, body: form.Body }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sent,
    answerNext: (...answers) => queue.push(...answers),
    answerFor: (to, answer) => perNumber.set(to, answer),
    async waitForRequests(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} Twilio requests within ${timeoutMs} ms, got ${requests.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return requests.slice(0, n);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
