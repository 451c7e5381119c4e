// The company profile: name, email, logo URL (with a live preview), time zone and whether the
// company is listed publicly; saved with one button.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { useUpdateCompany, type Company } from '../../../data/companies.ts';
import { FormField, TextField } from '../../../components/form-field.tsx';

/** IANA zones the browser knows, with the company's own zone kept even if it is not among them. */
export function timeZoneChoices(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const set = new Set(zones);
  set.add('UTC');
  if (current) set.add(current);
  return [...set].sort((a, b) => a.localeCompare(b));
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export function CompanyProfileCard({ company }: { company: Company }) {
  const id = useId();
  const [name, setName] = useState(company.name);
  const [email, setEmail] = useState(company.email ?? '');
  const [logoUrl, setLogoUrl] = useState(company.logo_url ?? '');
  const [timezone, setTimezone] = useState(company.timezone);
  const [listed, setListed] = useState(company.listed_publicly);
  const [failedLogo, setFailedLogo] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const zones = useMemo(() => timeZoneChoices(company.timezone), [company.timezone]);
  const mutation = useUpdateCompany(company.id);

  const logo = logoUrl.trim();
  const logoOk = logo !== '' && isHttpUrl(logo);

  const touch = () => {
    setSaved(false);
    setProblem(null);
  };
  const edit = (set: (v: string) => void) => (value: string) => {
    set(value);
    touch();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    touch();
    if (!name.trim()) return setProblem('Company name is required.');
    if (email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) return setProblem('Please enter a valid email address.');
    if (logo && !logoOk) return setProblem('Logo URL must start with http:// or https://.');
    mutation.mutate(
      { name: name.trim(), email: email.trim() || null, logo_url: logo || null, timezone, listed_publicly: listed },
      { onSuccess: () => setSaved(true), onError: (err) => setProblem(`Failed to save company profile: ${errorMessage(err)}`) },
    );
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Company profile</h2>
      <form onSubmit={onSubmit} noValidate>
        <TextField label="Company name" id={`${id}-name`} value={name} autoComplete="organization" onValueChange={edit(setName)} />
        <TextField
          label="Company email"
          id={`${id}-email`}
          type="email"
          value={email}
          autoComplete="email"
          onValueChange={edit(setEmail)}
        />
        <FormField
          label="Logo URL"
          id={`${id}-logo`}
          hint={
            logo && !logoOk
              ? 'Enter a full address starting with https://.'
              : logoOk && failedLogo === logo
                ? 'The image at this address could not be loaded.'
                : 'Shown on your booking page. Leave empty to show your initial.'
          }
        >
          {(control) => (
            <div className="cs-logo-row">
              <div className="cs-logo-preview" aria-live="polite">
                {logoOk && failedLogo !== logo ? (
                  <img src={logo} alt="Logo preview" onError={() => setFailedLogo(logo)} />
                ) : (
                  <span className="cs-logo-initial" aria-hidden="true">
                    {(name.trim() || company.name).charAt(0).toUpperCase()}
                  </span>
                )}
              </div>
              <input
                {...control}
                className="input"
                type="url"
                inputMode="url"
                placeholder="https://example.com/logo.png"
                value={logoUrl}
                onChange={(e) => edit(setLogoUrl)(e.target.value)}
              />
            </div>
          )}
        </FormField>
        <FormField label="Time zone" id={`${id}-tz`} hint="Opening hours and booking times are in this time zone.">
          <select className="select" value={timezone} onChange={(e) => edit(setTimezone)(e.target.value)}>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </FormField>
        <label className="checkbox cs-check">
          <input
            type="checkbox"
            checked={listed}
            onChange={(e) => {
              setListed(e.target.checked);
              touch();
            }}
          />
          <span>List my company publicly, so customers can find it on the booking page's business list</span>
        </label>
        {problem && <Alert tone="error">{problem}</Alert>}
        {saved && <Alert tone="success">Company profile saved.</Alert>}
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save Profile'}
        </button>
      </form>
    </section>
  );
}
