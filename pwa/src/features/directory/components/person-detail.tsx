// One person opened from the Directory: their settings editor, Back to Directory and, for a
// customer, Schedule Appointment (the calendar's appointment modal with the customer prefilled);
// for a staff member the viewer may remove, Remove from the team; for someone who has not set a
// password yet, Send the invitation again.
import { useState } from 'react';
import type { User } from '../../../data/users.ts';
import { RoleBadge } from '../../../components/role-badge.tsx';
import type { DirectorySlots } from '../directory-page.tsx';
import { initials } from './person-list.tsx';
import { PrivacyCard } from '../../../components/privacy-card.tsx';
import { RemovePersonCard } from './remove-person-card.tsx';
import { InvitationCard } from './invitation-card.tsx';

export function PersonDetail({
  personId,
  person,
  onBack,
  canSchedule,
  canRemove,
  canInvite,
  slots: { PersonEditor, ScheduleAppointment },
}: {
  personId: number;
  /** The list's copy, when the person is in it (the editor loads them either way). */
  person: User | undefined;
  onBack: () => void;
  canSchedule: boolean;
  /** The viewer may remove this staff member from the team. */
  canRemove: boolean;
  /** The viewer could have added this person, so may send their invitation again. */
  canInvite: boolean;
  slots: DirectorySlots;
}) {
  const [scheduling, setScheduling] = useState(false);
  const isCustomer = person?.role === 'customer';
  return (
    <div className="dir-detail">
      <div className="dir-detail-bar">
        <button type="button" className="btn btn-secondary" onClick={onBack}>
          <span aria-hidden="true">←</span> Back to Directory
        </button>
        {isCustomer && canSchedule && (
          <button type="button" className="btn btn-primary" onClick={() => setScheduling(true)}>
            Schedule Appointment
          </button>
        )}
      </div>
      {person && (
        <div className="dir-detail-head">
          <span className="dir-avatar dir-avatar-lg" aria-hidden="true">
            {initials(person.name)}
          </span>
          <div className="dir-detail-title">
            <h2>{person.name}</h2>
            <RoleBadge role={person.role} />
          </div>
        </div>
      )}
      {person && canInvite && !person.has_password && <InvitationCard person={person} />}
      <PersonEditor userId={personId} />
      {person && <PrivacyCard userId={personId} role={person.role} companyId={person.company_id} onErased={onBack} />}
      {person && canRemove && !isCustomer && <RemovePersonCard person={person} onRemoved={onBack} />}
      {isCustomer && canSchedule && <ScheduleAppointment open={scheduling} onClose={() => setScheduling(false)} customerId={personId} />}
    </div>
  );
}
