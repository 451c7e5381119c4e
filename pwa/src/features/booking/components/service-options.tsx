// The services as a radio list: name, duration and (unless hidden) price.
import type { ServiceType } from '../../../data/service-types.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

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
            {showPrice && <span className="choice-price">{money.format(Number(s.price))}</span>}
          </label>
        );
      })}
    </div>
  );
}
