// The company's public booking link ({origin}/public/booking/{slug}) with a Copy button.
import { useId } from 'react';
import { useCopyText } from '../../../lib/use-copy-text.ts';
import type { Company } from '../../../data/companies.ts';

export function bookingLink(slug: string, origin = window.location.origin): string {
  return `${origin}/public/booking/${slug}`;
}

export function BookingLinkCard({ company }: { company: Company }) {
  const id = useId();
  const link = bookingLink(company.slug);
  const { copied, copy } = useCopyText();

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Booking link</h2>
      <p className="cs-lead">Share this link or put it on your website: customers book with you there.</p>
      <div className="cs-link-row">
        <label htmlFor={`${id}-link`} className="visually-hidden">
          Booking link
        </label>
        <input id={`${id}-link`} className="input cs-link" value={link} readOnly onFocus={(e) => e.target.select()} />
        <button type="button" className="btn btn-primary" onClick={() => copy(link)}>
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
