// The country phone numbers are read in (docs/decisions/22-messaging.md): a number typed without +
// and a country code, in the Directory, Settings or on the booking page, is read as a number of this
// country and saved in international (E.164) form, the form text reminders need. Applied at once and
// put back with a short notice when the server refuses it, like the booking options
// (docs/decisions/08-offline-pwa.md).
import { useId, useMemo, useState } from 'react';
import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { useOptimisticCompanySetting, type Company } from '../../../data/companies.ts';

export const PHONE_COUNTRY_LABEL = 'Country for phone numbers';

export interface CountryChoice {
  code: string;
  /** The country's name in the browser's language ("United Kingdom"). */
  name: string;
  /** "United Kingdom (+44)" */
  label: string;
}

/**
 * Every country the server accepts (libphonenumber-js knows its numbering plan: the same list the API
 * validates against), named in the browser's language, with its calling code, sorted by name. The
 * company's own code is kept even if it were not among them.
 */
export function countryChoices(current: string, locale?: string): CountryChoice[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(locale ? [locale] : undefined, { type: 'region' });
  } catch {
    names = null;
  }
  const codes: string[] = getCountries();
  if (current && !codes.includes(current)) codes.push(current);
  return codes
    .map((code) => {
      const name = names?.of(code) ?? code;
      let calling = '';
      try {
        calling = ` (+${getCountryCallingCode(code as CountryCode)})`;
      } catch {
        calling = '';
      }
      return { code, name, label: `${name}${calling}` };
    })
    .sort((a, b) => a.label.localeCompare(b.label, locale));
}

export function PhoneCountryCard({ company: saved }: { company: Company }) {
  const id = useId();
  const setting = useOptimisticCompanySetting(saved.id);
  const company = setting.shown(saved);
  const [notice, setNotice] = useState<string | null>(null);
  const choices = useMemo(() => countryChoices(company.country), [company.country]);
  const countryName = choices.find((c) => c.code === company.country)?.name ?? company.country;

  const change = (country: string) => {
    setNotice(null);
    setting.apply({ country }, (err) => {
      console.warn('Saving the phone number country failed', err);
      setNotice(`Could not save the country for phone numbers: ${errorMessage(err)} The previous setting is back.`);
    });
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Phone numbers</h2>
      {notice && (
        <Alert tone="warn" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <FormField
        label={PHONE_COUNTRY_LABEL}
        id={`${id}-country`}
        hint={
          <>
            Numbers typed without + and a country code are read as {countryName} numbers, and saved in international form (+ and the country
            code), the form text reminders need.
          </>
        }
      >
        <select className="select" value={company.country} onChange={(e) => change(e.target.value)}>
          {choices.map((c) => (
            <option key={c.code} value={c.code}>
              {c.label}
            </option>
          ))}
        </select>
      </FormField>
    </section>
  );
}
