// The Twilio sender against a local fake of Twilio's API over real HTTP: the request Twilio gets, and
// what each kind of answer means for the dispatcher (retry, dead, opted out).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTwilio, twilioAnswers, type FakeTwilio } from '../../testing/fake-twilio.ts';
import { DeliveryError } from './delivery-error.ts';
import { createTwilioSms, twilioMessagesUrl, type TwilioConfig } from './twilio-sms.ts';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'auth-token-secret';
const FROM = '+15005550006';

let twilio: FakeTwilio;
let config: TwilioConfig;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  config = { TWILIO_API_URL: twilio.url, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: FROM };
});
afterAll(() => twilio.close());
beforeEach(() => {
  twilio.requests.length = 0;
  twilio.sent.length = 0;
});

/** The error `send` rejects with (fails the test when it resolves). */
async function failure(p: Promise<void>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the send to fail');
}

describe('Twilio SMS sender', () => {
  it("POSTs To, From and Body form-encoded to the account's Messages.json with Basic auth", async () => {
    const body = 'Reminder: Haircut at Salon & Co on Tue 24 Nov, 9:30 AM. Reply STOP to opt out.';
    await createTwilioSms(config).send('+14155552671', body);
    expect(twilio.requests).toHaveLength(1);
    const [req] = twilio.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(req.contentType).toBe('application/x-www-form-urlencoded');
    expect(req.form).toEqual({ To: '+14155552671', From: FROM, Body: body });
    expect(req.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(req.basic).toEqual({ user: SID, password: TOKEN });
  });

  it('keeps a path prefix of TWILIO_API_URL and drops its trailing slash', () => {
    expect(twilioMessagesUrl({ ...config, TWILIO_API_URL: 'https://proxy.example/twilio/' })).toBe(
      `https://proxy.example/twilio/2010-04-01/Accounts/${SID}/Messages.json`,
    );
  });

  it('a 5xx is a plain error (retried with backoff), never a DeliveryError', async () => {
    twilio.answerNext(twilioAnswers.serverError);
    const err = await failure(createTwilioSms(config).send('+14155552671', 'x'));
    expect(err).not.toBeInstanceOf(DeliveryError);
    expect(err.message).toBe('Twilio answered 500, error 20500: Internal Server Error');
  });

  it("429 (Twilio's too many requests) is a 4xx like any other: permanent, not retried", async () => {
    twilio.answerNext({ kind: 'error', status: 429, code: 20429, message: 'Too Many Requests' });
    const err = await failure(createTwilioSms(config).send('+14155552671', 'x'));
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err).toMatchObject({ permanent: true, optOut: false, providerCode: 20429 });
    expect(err.message).toBe('Twilio answered 429, error 20429: Too Many Requests');
  });

  it("a 4xx is permanent with Twilio's message and code", async () => {
    twilio.answerNext(twilioAnswers.invalidNumber);
    const err = await failure(createTwilioSms(config).send('+1415', 'x'));
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err).toMatchObject({ permanent: true, optOut: false, providerCode: 21211 });
    expect(err.message).toBe("Twilio answered 400, error 21211: The 'To' number is not a valid phone number.");
  });

  it('a 4xx without a JSON body is still permanent, with what it said', async () => {
    const plain = http.createServer((_req, res) => {
      res.statusCode = 404;
      res.end('no such account');
    });
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      const err = await failure(createTwilioSms({ ...config, TWILIO_API_URL: url }).send('+14155552671', 'x'));
      expect(err).toMatchObject({ permanent: true, optOut: false, providerCode: null, message: 'Twilio answered 404: no such account' });
    } finally {
      await new Promise<void>((r) => plain.close(() => r()));
    }
  });

  it('error 21610 (the recipient replied STOP) is an opt-out', async () => {
    twilio.answerNext(twilioAnswers.unsubscribed);
    const err = await failure(createTwilioSms(config).send('+14155552671', 'x'));
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err).toMatchObject({ permanent: true, optOut: true, providerCode: 21610 });
    expect(err.message).toContain('Attempt to send to unsubscribed recipient');
  });

  it('no answer within the timeout is a plain error (retried)', async () => {
    twilio.answerNext(twilioAnswers.hang);
    const err = await failure(createTwilioSms(config, { timeoutMs: 300 }).send('+14155552671', 'x'));
    expect(err).not.toBeInstanceOf(DeliveryError);
    expect(err.message).toBe('Twilio did not answer within 0.3 s');
  });

  it('a refused connection is a plain error (retried) that never shows the auth token', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await failure(createTwilioSms({ ...config, TWILIO_API_URL: url }).send('+14155552671', 'x'));
    expect(err).not.toBeInstanceOf(DeliveryError);
    expect(err.message).toBe('Twilio could not be reached: ECONNREFUSED');
    expect(err.message).not.toContain(TOKEN);
  });

  it('refuses to start without the account SID, token or sender', () => {
    expect(() => createTwilioSms({ ...config, TWILIO_FROM: undefined })).toThrow(/TWILIO_FROM/);
  });
});
