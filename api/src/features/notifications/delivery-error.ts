// How a channel (SMTP, Twilio) tells the dispatcher what a failed send means
// (docs/decisions/22-messaging.md): retry later with backoff (the default for any other error),
// give up at once (`permanent`: a 4xx, an invalid number), or give up and record that the
// recipient opted out of texts (`optOut`: Twilio error 21610).
export class DeliveryError extends Error {
  readonly permanent: boolean;
  readonly optOut: boolean;
  /** The provider's own error code, when it gave one (Twilio's `code`). */
  readonly providerCode: number | null;

  constructor(message: string, opts: { permanent: boolean; optOut?: boolean; providerCode?: number | null }) {
    super(message);
    this.name = 'DeliveryError';
    this.permanent = opts.permanent || !!opts.optOut;
    this.optOut = !!opts.optOut;
    this.providerCode = opts.providerCode ?? null;
  }
}
