// The public booking page (docs/product/02-screens.md, "Booking page") at /book-appointment,
// /book-appointment/{companyId} and /public/booking/{companySlug}.
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { isApiError, errorMessage } from '../../lib/api-errors.ts';
import { usePublicBrand } from '../../lib/public-brand.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { FormField } from '../../components/form-field.tsx';
import { OnlineOnlyNotice } from '../../components/online-only-notice.tsx';
import { useCompanyByRef, usePublicCompanies, type CompanyRef, type CompanyView } from '../../data/companies.ts';
import { BookingForm } from './booking-form.tsx';
import { BOOKING_TEXT } from './booking-text.ts';
import './booking-page.css';

const NOT_FOUND = 'Company not found';

function refFromParams(companyId?: string, companySlug?: string): CompanyRef | 'invalid' | null {
  if (companySlug) return { by: 'slug', slug: companySlug };
  if (companyId === undefined) return null;
  return /^[1-9]\d{0,9}$/.test(companyId) ? { by: 'id', id: Number(companyId) } : 'invalid';
}

function CompanyNotFound() {
  return (
    <div className="page-narrow">
      <div className="card booking-missing">
        <h1>Book Appointment</h1>
        <Alert tone="error">{NOT_FOUND}</Alert>
        <Link to="/" className="btn btn-primary">
          Go Home
        </Link>
      </div>
    </div>
  );
}

function CompanyHeading({ company }: { company: CompanyView | null }) {
  const [logoFailed, setLogoFailed] = useState(false);
  return (
    <header className="booking-head">
      <h1>Book Appointment</h1>
      {company && (
        <div className="booking-company">
          {company.logo_url && !logoFailed ? (
            <img src={company.logo_url} alt="" width={48} height={48} onError={() => setLogoFailed(true)} />
          ) : (
            <span className="booking-company-initial" aria-hidden="true">
              {company.name.trim().charAt(0).toUpperCase()}
            </span>
          )}
          <span className="booking-company-name">{company.name}</span>
        </div>
      )}
    </header>
  );
}

function NotAccepting({ company }: { company: CompanyView }) {
  return (
    <div className="card">
      <Alert tone="warn">{BOOKING_TEXT.notAccepting}</Alert>
      <p>Please contact {company.name} directly to make an appointment.</p>
      <Link to="/" className="btn btn-secondary">
        Go Home
      </Link>
    </div>
  );
}

export default function BookingPage() {
  const { companyId, companySlug } = useParams();
  const location = useLocation();
  const fixedRef = refFromParams(companyId, companySlug);
  const [pickedId, setPickedId] = useState('');
  const choosing = fixedRef === null;

  const ref: CompanyRef | null = fixedRef === 'invalid' ? null : (fixedRef ?? (pickedId ? { by: 'id', id: Number(pickedId) } : null));
  const company = useCompanyByRef(ref);
  const companies = usePublicCompanies(choosing);
  const [notAccepting, setNotAccepting] = useState(false);
  const onNotAccepting = useCallback(() => setNotAccepting(true), []);

  useEffect(() => {
    setNotAccepting(false);
  }, [company.data?.id]);

  usePublicBrand(company.data && !choosing ? { name: company.data.name, logoUrl: company.data.logo_url, href: location.pathname } : null);
  useDocumentTitle(company.data ? `Book with ${company.data.name}` : 'Book Appointment');

  if (fixedRef === 'invalid') return <CompanyNotFound />;

  if (!choosing) {
    // The page's heading at once (the largest text of the page, what a visitor waits for), the
    // business's name and the form when its answer is in.
    if (company.isPending)
      return (
        <div className="page-medium booking-page">
          <CompanyHeading company={null} />
          {/* A load the connection dropped under waits for it: say why instead of only spinning. */}
          <OnlineOnlyNotice />
          <Loading />
        </div>
      );
    if (company.isError) {
      const status = isApiError(company.error) ? company.error.status : null;
      if (status === 404 || status === 400) return <CompanyNotFound />;
      return (
        <div className="page-narrow">
          <div className="card">
            <h1>Book Appointment</h1>
            <OnlineOnlyNotice unreachable={status === null} />
            <Alert tone="error">{errorMessage(company.error)}</Alert>
            <button type="button" className="btn btn-primary" onClick={() => void company.refetch()}>
              Try again
            </button>
          </div>
        </div>
      );
    }
  }

  const current = company.data ?? null;
  const closed = current && (notAccepting || current.accepting_bookings === false);

  const businessSelect = choosing ? (
    <FormField label="Business" id="bk-business">
      {(control) => (
        <>
          <select {...control} className="select" value={pickedId} onChange={(e) => setPickedId(e.target.value)} disabled={!companies.data}>
            <option value="">
              {companies.isPending
                ? 'Loading...'
                : companies.data?.length === 0
                  ? 'No businesses take online bookings yet'
                  : 'Select a business'}
            </option>
            {companies.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          {companies.isError && <span className="field-error">{BOOKING_TEXT.loadFailed}</span>}
          {pickedId && company.isPending && <Loading />}
          {pickedId && company.isError && <span className="field-error">{errorMessage(company.error)}</span>}
        </>
      )}
    </FormField>
  ) : undefined;

  return (
    <div className="page-medium booking-page">
      <CompanyHeading company={choosing ? null : current} />
      <OnlineOnlyNotice />
      {closed ? (
        <NotAccepting company={current} />
      ) : (
        <BookingForm
          company={choosing && company.isError ? null : current}
          businessSelect={businessSelect}
          onNotAccepting={onNotAccepting}
        />
      )}
    </div>
  );
}
