// Phone numbers as staff read them. The API keeps every number it is given in E.164
// (docs/decisions/10-reminders-and-sms.md: "+12125550147"); lists show them grouped the way the
// number's country writes them ("+1 212 555 0147"), whoever entered them and however. A number the
// library cannot read (one stored before numbers were normalised) is shown as it was typed.
import { parsePhoneNumberFromString } from 'libphonenumber-js';

export function displayPhone(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}
