// Reading received emails in tests: the decoded MIME parts of a raw message, its text part, and the
// self-service link in it.
import { decodeQuotedPrintable, type ReceivedMail } from './smtp.ts';

export function mimeParts(raw: string): { headers: string; body: string }[] {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]);
  let chunks = [raw];
  for (const b of boundaries) chunks = chunks.flatMap((c) => c.split(`--${b}`));
  return chunks.map((chunk) => {
    const split = chunk.search(/\r?\n\r?\n/);
    const headers = split < 0 ? chunk : chunk.slice(0, split);
    let body = split < 0 ? '' : chunk.slice(split).trim();
    if (/content-transfer-encoding:\s*base64/i.test(headers)) body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    else if (/content-transfer-encoding:\s*quoted-printable/i.test(headers))
      body = Buffer.from(decodeQuotedPrintable(body), 'latin1').toString('utf8');
    return { headers, body };
  });
}

/** The text/plain part of a received email. */
export function mailText(mail: ReceivedMail): string {
  const part = mimeParts(mail.raw).find((p) => /content-type:\s*text\/plain/i.test(p.headers));
  if (!part) throw new Error('no text/plain part');
  return part.body;
}

/** The text/html part of a received email. */
export function mailHtml(mail: ReceivedMail): string {
  const part = mimeParts(mail.raw).find((p) => /content-type:\s*text\/html/i.test(p.headers));
  if (!part) throw new Error('no text/html part');
  return part.body;
}

/** The `{APP_URL}/manage/<token>` link of a text, and its token; throws when there is none. */
export function manageLinkIn(text: string): { url: string; token: string } {
  const m = /(https?:\/\/[^\s"<>]+\/manage\/([A-Za-z0-9_-]+))/.exec(text);
  if (!m) throw new Error(`no manage link in:\n${text}`);
  return { url: m[1], token: m[2] };
}
