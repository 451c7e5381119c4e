// Reads the e2e SMTP inbox (see e2e-server.ts) and pulls links out of messages.
export const MAIL_URL = `http://127.0.0.1:${process.env.E2E_MAIL_PORT ?? 3101}/mail`;

export interface Mail {
  from: string;
  to: string[];
  raw: string;
}

export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Waits until a message for `to` matching `pred` arrived, and returns it decoded. */
export async function waitForMail(to: string, pred: (body: string) => boolean = () => true, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${MAIL_URL}?to=${encodeURIComponent(to)}`);
    const list = (await res.json()) as Mail[];
    const found = list
      .map((m) => decodeQuotedPrintable(m.raw))
      .reverse()
      .find(pred);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no email for ${to} within ${timeoutMs} ms`);
}

export function linkIn(body: string, pattern: RegExp): string {
  const m = pattern.exec(body);
  if (!m) throw new Error(`no link matching ${pattern} in email`);
  return m[0];
}
