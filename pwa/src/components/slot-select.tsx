// The time drop-down of a day's free start times, shared by the booking page and the customer's
// "move to another time" panel (docs/product/04-states.md): its first option says why there is
// nothing to pick yet (no date, loading, failed, none free) or asks for a time.
import type { ChangeEvent } from 'react';
import type { AvailableSlot } from '../data/availability.ts';
import type { FieldControlProps } from './form-field.tsx';

export function SlotSelect({
  slots,
  by,
  value,
  onChange,
  dateChosen,
  pending,
  failed,
  ...control
}: Partial<FieldControlProps> & {
  slots: readonly AvailableSlot[];
  /** Which of a slot's fields is the option's value: the company-zone 'HH:MM' or the ISO instant. */
  by: 'value' | 'start';
  value: string;
  onChange: (e: ChangeEvent<HTMLSelectElement>) => void;
  dateChosen: boolean;
  pending: boolean;
  failed: boolean;
}) {
  return (
    <select
      {...control}
      className="select"
      required
      value={value}
      disabled={!dateChosen || pending || slots.length === 0}
      onChange={onChange}
    >
      <option value="">
        {!dateChosen
          ? 'Select a date first'
          : pending
            ? 'Loading times...'
            : failed
              ? 'Could not load times'
              : slots.length === 0
                ? 'No times available on this date'
                : 'Select a time'}
      </option>
      {slots.map((s) => (
        <option key={s[by]} value={s[by]}>
          {s.label}
        </option>
      ))}
    </select>
  );
}
