// /directory (docs/product/02-screens.md): the company's staff (every staff role) and customers, a
// case-insensitive customer search on name or email, + Add Employee / + Add Customer for admins and
// managers (docs/decisions/03-tenancy-and-roles.md), and a person's detail view (?person=id, so Back works too).
import { useDeferredValue, useId, useMemo, useState, type ComponentType } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '../../lib/auth.tsx';
import { STAFF_ROLES, useUsers, type PersonKind, type Role, type User } from '../../data/users.ts';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { PersonList } from './components/person-list.tsx';
import { PersonDetail } from './components/person-detail.tsx';
import { AddPersonModal } from './components/add-person-modal.tsx';
import './directory-page.css';
import { SearchField } from '../../components/form-field.tsx';

export const DIRECTORY_TEXT = {
  noStaff: 'No staff members for current company',
  noCustomers: 'No customers for current company',
  failed: 'Failed to fetch directory.',
  noCompany: 'User or company information is not available.',
} as const;

/** Case-insensitive match on name or email. */
export function matchesSearch(p: Pick<User, 'name' | 'email'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return p.name.toLowerCase().includes(q) || p.email.toLowerCase().includes(q);
}

const byName = (a: User, b: User) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** What the Directory shows from other features; the app passes them in (app/routes/directory-route.tsx). */
export interface DirectorySlots {
  /** A person's settings editor, the same one /settings shows. */
  PersonEditor: ComponentType<{ userId: number }>;
  /** Schedule Appointment for a customer: the calendar's appointment modal with the customer prefilled. */
  ScheduleAppointment: ComponentType<{ open: boolean; onClose: () => void; customerId: number }>;
}

export default function DirectoryPage({ slots }: { slots: DirectorySlots }) {
  const { user } = useAuth();
  if (!user || user.company_id === null) return <Alert tone="error">{DIRECTORY_TEXT.noCompany}</Alert>;
  return <Directory companyId={user.company_id} role={user.role} viewerId={user.id} slots={slots} />;
}

/** As the server allows (DELETE /users/{id}): admins any staff member but themselves, managers employees. */
function canRemove(role: Role, viewerId: number, person: User): boolean {
  if (person.id === viewerId || !STAFF_ROLES.includes(person.role)) return false;
  return role === 'admin' || (role === 'manager' && person.role === 'employee');
}

/** As the server allows (POST /users/{id}/invitation): whoever could have added the person. */
function canInvite(role: Role, person: User): boolean {
  return role === 'admin' || (role === 'manager' && person.role !== 'admin' && person.role !== 'manager');
}

function Directory({ companyId, role, viewerId, slots }: { companyId: number; role: Role; viewerId: number; slots: DirectorySlots }) {
  const id = useId();
  const directory = useUsers(companyId);
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [adding, setAdding] = useState<PersonKind | null>(null);
  const canAdd = role === 'admin' || role === 'manager';
  // Managers add employees only (the server refuses them admins and managers).
  const staffRoles: Role[] = role === 'admin' ? ['employee', 'manager', 'admin'] : ['employee'];

  const personParam = params.get('person');
  const personId = personParam && /^\d+$/.test(personParam) ? Number(personParam) : null;

  const { staff, customers } = useMemo(() => {
    const people = directory.data ?? [];
    return {
      staff: people.filter((p) => STAFF_ROLES.includes(p.role)).sort(byName),
      customers: people.filter((p) => p.role === 'customer').sort(byName),
    };
  }, [directory.data]);
  const shownCustomers = useMemo(() => customers.filter((c) => matchesSearch(c, deferredSearch)), [customers, deferredSearch]);

  const open = (p: User) => setParams({ person: String(p.id) });
  const back = () => {
    const next = new URLSearchParams(params);
    next.delete('person');
    setParams(next);
  };

  if (personId !== null) {
    const person = directory.data?.find((p) => p.id === personId);
    return (
      <PersonDetail
        key={personId}
        personId={personId}
        person={person}
        onBack={back}
        canSchedule
        canRemove={person !== undefined && canRemove(role, viewerId, person)}
        canInvite={person !== undefined && canInvite(role, person)}
        slots={slots}
      />
    );
  }

  return (
    <div className="dir-page">
      {canAdd && (
        <div className="dir-actions">
          <button type="button" className="btn btn-primary" onClick={() => setAdding('employee')}>
            + Add Employee
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => setAdding('customer')}>
            + Add Customer
          </button>
        </div>
      )}

      {directory.isPending ? (
        <Loading label="Loading directory..." />
      ) : directory.isError ? (
        <Alert tone="error">
          {DIRECTORY_TEXT.failed}{' '}
          <button type="button" className="btn-link" onClick={() => directory.refetch()}>
            Retry
          </button>
        </Alert>
      ) : (
        <div className="dir-columns">
          <section className="card dir-col" aria-labelledby={`${id}-staff`}>
            <div className="dir-col-head">
              <h2 id={`${id}-staff`}>Staff</h2>
              <span className="dir-count">{staff.length}</span>
            </div>
            <PersonList people={staff} empty={DIRECTORY_TEXT.noStaff} onOpen={open} showRole />
          </section>
          <section className="card dir-col" aria-labelledby={`${id}-cust`}>
            <div className="dir-col-head">
              <h2 id={`${id}-cust`}>Customers</h2>
              {/* While a search narrows the list: how many of them it shows. */}
              <span className="dir-count">
                {shownCustomers.length === customers.length ? customers.length : `${shownCustomers.length} of ${customers.length}`}
              </span>
            </div>
            {customers.length > 0 && (
              <SearchField
                label="Search customers"
                labelClassName="visually-hidden"
                id={`${id}-search`}
                className="dir-search"
                placeholder="Search by name or email"
                value={search}
                onValueChange={setSearch}
              />
            )}
            <PersonList
              people={shownCustomers}
              empty={customers.length === 0 ? DIRECTORY_TEXT.noCustomers : `No customers match "${search.trim()}".`}
              onOpen={open}
              showRole={false}
            />
          </section>
        </div>
      )}

      {canAdd && adding && (
        // Mounted per opening, so each one starts with an empty form.
        <AddPersonModal key={adding} kind={adding} open onClose={() => setAdding(null)} companyId={companyId} staffRoles={staffRoles} />
      )}
    </div>
  );
}
