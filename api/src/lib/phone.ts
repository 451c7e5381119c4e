// Phone numbers are stored in E.164 (+14155552671), the form Twilio's `To` needs, read where they are
// entered with the company's `country` as the region of numbers written without a +
// (docs/decisions/22-messaging.md, "SMS and phone numbers").
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { badRequest } from './errors.ts';

/** The region a company's numbers are read in; an unknown or missing code falls back to US (the column's default). */
function regionOf(country: string | null | undefined): CountryCode {
  return country && isSupportedCountry(country) ? country : 'US';
}

/** The number in E.164, or null when it cannot be a phone number (isPossiblePhoneNumber: its length fits no numbering plan). */
export function toE164(input: string, country: string | null | undefined): string | null {
  // One parse of the whole input (extract: false, as isPossiblePhoneNumber parses it); parsing it a
  // second time for the number was 3-4% of a booking's server CPU.
  const parsed = parsePhoneNumberFromString(input, { defaultCountry: regionOf(country), extract: false });
  return parsed?.isPossible() ? parsed.number : null;
}

/**
 * A number typed into `field` (a body path such as `phone` or `customer.phone`) as E.164; an empty one
 * is "no phone" (null). A number that is not possible answers 400 naming the field, in the API's
 * validation shape ({error, code: 'validation', details: [{path, message}]}).
 */
export function normalisePhone(input: string | null | undefined, country: string | null | undefined, field: string): string | null {
  const typed = input?.trim();
  if (!typed) return null;
  const e164 = toE164(typed, country);
  if (e164) return e164;
  const message = `${field} is not a possible phone number: write it as dialled in ${regionOf(country)}, or with + and the country code`;
  throw badRequest(message, [{ path: field, message }]);
}
