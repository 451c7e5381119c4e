import { describe, expect, it, vi } from 'vitest';
import { outboxEntry, serverAppointment } from './testing/offline-fixtures.ts';
import { createSend, toSendResult } from './send.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const entry = outboxEntry;

describe('outbox send', () => {
  it('maps a success to ok with the server row, and 204 to ok without one', async () => {
    const row = serverAppointment(5, '2026-11-24T09:00:00.000Z', 4);
    expect(await toSendResult(json(200, row))).toEqual({ ok: true, appointment: row });
    expect(await toSendResult(new Response(null, { status: 204 }))).toEqual({ ok: true, appointment: undefined });
  });

  it("passes a 412's current row along, and a refusal's code and message", async () => {
    const current = serverAppointment(5, '2026-11-24T10:00:00.000Z', 7);
    expect(await toSendResult(json(412, { error: 'Changed elsewhere', code: 'version_mismatch', current }))).toEqual({
      ok: false,
      status: 412,
      code: 'version_mismatch',
      message: 'Changed elsewhere',
      current,
    });
    expect(await toSendResult(json(409, { error: 'Taken', code: 'slot_taken' }))).toMatchObject({
      ok: false,
      status: 409,
      code: 'slot_taken',
    });
    expect(await toSendResult(new Response('oops', { status: 502 }))).toMatchObject({ ok: false, status: 502 });
  });

  it('rejects when no answer came, so the runner retries later', async () => {
    const send = createSend(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(send(entry())).rejects.toThrow('Failed to fetch');
  });

  it('sends each entry through the request builder', async () => {
    const fetcher = vi.fn(async () => json(200, serverAppointment(5, '2026-11-24T09:00:00.000Z', 4)));
    const send = createSend(fetcher);
    await send(entry());
    expect(fetcher).toHaveBeenCalledWith(expect.objectContaining({ idempotencyKey: 'key-1', ifMatch: 3 }));
  });
});
