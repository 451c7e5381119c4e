// Time slot endpoints over real HTTP: the seeded 15-minute grid, public, read-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';

describe.each(testDialects())('time slots on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => t?.close());

  it('lists the 96 times of a day at 15-minute steps, to anyone', async () => {
    const res = await t.call('GET', '/time-slots');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(96);
    expect(res.body[0]).toEqual({ id: expect.any(Number), display_value: '00:00' });
    expect(res.body[95].display_value).toBe('23:45');
    const expected = Array.from(
      { length: 96 },
      (_, i) => `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
    );
    expect(res.body.map((s: any) => s.display_value)).toEqual(expected);
    expect(Object.keys(res.body[0]).sort()).toEqual(['display_value', 'id']);
  });

  it('reads one slot by id; unknown 404, bad ids 400', async () => {
    const all = (await t.call('GET', '/time-slots')).body;
    const nine = all.find((s: any) => s.display_value === '09:00');
    const res = await t.call('GET', `/time-slots/${nine.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(nine);
    expect((await t.call('GET', '/time-slots/999999')).status).toBe(404);
    for (const bad of ['0', '-1', '1.5', 'abc', '99999999999']) expect((await t.call('GET', `/time-slots/${bad}`)).status, bad).toBe(400);
  });

  it('has no write endpoints', async () => {
    expect((await t.call('POST', '/time-slots', { body: { display_value: '25:00' } })).status).toBe(404);
    expect((await t.call('DELETE', '/time-slots/1')).status).toBe(404);
  });
});
