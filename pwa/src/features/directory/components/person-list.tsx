// A column of people (staff or customers); each row opens that person's detail view.
import type { User } from '../../../data/users.ts';
import { RoleBadge } from '../../../components/role-badge.tsx';
import { displayPhone } from '../../../lib/phone-display.ts';

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

export function PersonList({
  people,
  empty,
  onOpen,
  showRole,
}: {
  people: User[];
  empty: string;
  onOpen: (person: User) => void;
  showRole: boolean;
}) {
  if (people.length === 0) return <p className="dir-empty">{empty}</p>;
  return (
    <ul className="dir-list">
      {people.map((p) => (
        <li key={p.id}>
          <button type="button" className="dir-person" onClick={() => onOpen(p)}>
            <span className="dir-avatar" aria-hidden="true">
              {initials(p.name)}
            </span>
            <span className="dir-person-text">
              <span className="dir-name">{p.name}</span>
              <span className="dir-contact">{p.email}</span>
              {p.phone && <span className="dir-contact">{displayPhone(p.phone)}</span>}
            </span>
            {showRole && <RoleBadge role={p.role} />}
            <span className="dir-chevron" aria-hidden="true">
              ›
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
