// The email export as CSV: quoted by csv-stringify, and safe to open in a spreadsheet.
import { stringify } from 'csv-stringify/sync';
import type { ExportRow } from './admin.repository.ts';

/**
 * A cell a spreadsheet would read as a formula (=, +, -, @, or a leading tab or carriage return)
 * gets a leading single quote, so "=HYPERLINK(...)" in someone's name stays text (OWASP CSV injection).
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function emailListCsv(rows: ExportRow[]): string {
  const records = rows.map((r) => [r.email, r.name, r.role, r.company_name ?? ''].map(neutraliseCell));
  // RFC 4180 line ends; csv-stringify quotes only cells holding the whole "\r\n", so a lone line
  // break inside a cell is matched explicitly (else it would split the record).
  return stringify([['email', 'name', 'role', 'company_name'], ...records], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
}

export function exportFileName(now: Date): string {
  return `user_emails_${now.toISOString().slice(0, 10)}.csv`;
}
