// The services as a radio list: name, duration and (unless hidden) price.
import type { ServiceType } from '../../../data/service-types.ts';

/**
 * A price as `Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })` writes it ("$1,234.50",
 * "-$5.00"), without Intl: creating the page's first Intl formatter loads locale data, a long task
 * (about 100 ms on a mid-range phone) in the render that first shows the services.
 */
export function formatUsd(n: number): string {
  // Rounded as Intl rounds: half away from zero on the number's shortest decimal form (2.675 -> 2.68).
  const abs = String(Math.abs(n));
  const rounded = /^\d+(\.\d+)?$/.test(abs) ? Math.round(Number(`${abs}e2`)) / 100 : NaN;
  if (!Number.isSafeInteger(Math.round(rounded * 100))) {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n); // NaN, Infinity, 1e21...
  }
  const [whole, cents] = rounded.toFixed(2).split('.');
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  return `${sign}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

export function formatDuration(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

export function ServiceOptions({
  services,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  services: ServiceType[];
  value: string;
  onChange: (id: string) => void;
  invalid: boolean;
  describedBy?: string;
}) {
  return (
    <div
      className="choice-list"
      role="radiogroup"
      aria-labelledby="bk-service-label"
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
    >
      {services.map((s) => {
        const id = `bk-service-${s.id}`;
        const showPrice = !s.hide_price && s.price !== null && s.price !== undefined;
        return (
          <label key={s.id} htmlFor={id} className={`choice${value === String(s.id) ? ' is-selected' : ''}`}>
            <input
              id={id}
              type="radio"
              name="service_type_id"
              value={s.id}
              checked={value === String(s.id)}
              onChange={() => onChange(String(s.id))}
            />
            <span className="choice-main">
              <span className="choice-title">{s.name}</span>
              <span className="choice-meta">{formatDuration(s.duration_minutes)}</span>
            </span>
            {showPrice && <span className="choice-price">{formatUsd(Number(s.price))}</span>}
          </label>
        );
      })}
    </div>
  );
}
