// A real SMTP server (the smtp-server package) that keeps what it receives, for email tests.
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** SMTP connections opened to this server so far (a pooled sender opens few for many messages). */
  readonly connections: number;
  /** Resolves with the first message matching `pred`, waiting up to `timeoutMs`. */
  waitFor(pred: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /**
   * Refuses a recipient: answer a reply line (such as '550 5.1.1 No such mailbox') to refuse it,
   * null to take it. `attempt` counts the times this address was offered (1 the first time). The
   * default refuses addresses starting with 'reject-once' the first time (550) and 'reject-always'
   * every time (550), and defers 'tempfail' ones (451): real failures for outbox tests.
   */
  reject?: (address: string, attempt: number) => string | null;
  /** Keep every message's data unanswered until `release()` (a send in flight, for crash tests). */
  hold?: boolean;
}

export interface HeldSmtp extends TestSmtp {
  /** Messages whose data arrived but are not answered yet (while `hold`). */
  held: ReceivedMail[];
  /** Answers the held messages (they then count as received) and stops holding. */
  release(): void;
}

export function defaultReject(address: string, attempt: number): string | null {
  const local = address.toLowerCase();
  if (local.startsWith('reject-always')) return '550 5.1.1 Mailbox unavailable';
  if (local.startsWith('reject-once') && attempt === 1) return '550 5.1.1 Mailbox unavailable';
  if (local.startsWith('tempfail')) return '451 4.3.0 Try again later';
  return null;
}

export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<HeldSmtp> {
  const messages: ReceivedMail[] = [];
  const held: ReceivedMail[] = [];
  const heldCallbacks: (() => void)[] = [];
  let holding = !!options.hold;
  const reject = options.reject ?? defaultReject;
  const offered = new Map<string, number>();
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const attempt = (offered.get(address.address.toLowerCase()) ?? 0) + 1;
      offered.set(address.address.toLowerCase(), attempt);
      const refusal = reject(address.address, attempt);
      if (!refusal) return callback();
      const err = new Error(refusal.slice(4)) as Error & { responseCode: number };
      err.responseCode = Number(refusal.slice(0, 3));
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        if (holding) {
          held.push(mail);
          heldCallbacks.push(() => {
            messages.push(mail);
            callback();
          });
          return;
        }
        messages.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    held,
    get connections() {
      return connections;
    },
    release() {
      holding = false;
      for (const answer of heldCallbacks.splice(0)) answer();
    },
    async waitFor(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const m = messages.find(pred);
        if (m) return m;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no matching email within ${timeoutMs} ms (received ${messages.length})`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The Message-ID header of a received email. */
export function messageIdOf(raw: string): string | null {
  return /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? null;
}

/** Decodes a quoted-printable email body enough to find links in it. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}
