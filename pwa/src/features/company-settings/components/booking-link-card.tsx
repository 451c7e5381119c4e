// The company's public booking link ({origin}/public/booking/{slug}) with a Copy button.
import { useEffect, useId, useState } from 'react';
import type { Company } from '../../../data/companies.ts';

export function bookingLink(slug: string, origin = window.location.origin): string {
  return `${origin}/public/booking/${slug}`;
}

/** Copies `text`; falls back to a hidden textarea where the Clipboard API is missing or refused. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('copy refused');
  }
}

export function BookingLinkCard({ company }: { company: Company }) {
  const id = useId();
  const link = bookingLink(company.slug);
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), 3000);
    return () => clearTimeout(t);
  }, [copied]);

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Booking link</h2>
      <p className="cs-lead">Share this link or put it on your website: customers book with you there.</p>
      <div className="cs-link-row">
        <label htmlFor={`${id}-link`} className="visually-hidden">
          Booking link
        </label>
        <input id={`${id}-link`} className="input cs-link" value={link} readOnly onFocus={(e) => e.target.select()} />
        <button
          type="button"
          className="btn btn-primary"
          onClick={() =>
            copyText(link).then(
              () => setCopied('ok'),
              () => setCopied('failed'),
            )
          }
        >
          Copy
        </button>
      </div>
      <p className="cs-link-foot" role="status">
        {copied === 'ok' ? (
          <span className="cs-ok">Link copied to the clipboard.</span>
        ) : copied === 'failed' ? (
          <span className="field-error">Could not copy: select the link and copy it by hand.</span>
        ) : (
          <a href={link} target="_blank" rel="noopener noreferrer">
            Open the booking page
          </a>
        )}
      </p>
    </section>
  );
}
