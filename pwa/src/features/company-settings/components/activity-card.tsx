// Activity (docs/decisions/31-audit-log.md): the company's audit log for its admins — who changed
// what and when. Managers do not see it (docs/decisions/12-operations-security-privacy.md: the company's admins).
import { useId } from 'react';
import { ActivityLog } from '../../../components/activity-log.tsx';

export function ActivityCard({ companyId, zone }: { companyId: number; zone: string }) {
  const id = useId();
  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Activity</h2>
      <p className="cs-lead">Who changed what and when: appointments, people, settings, hours and services, and failed sign-ins.</p>
      <ActivityLog companyId={companyId} zone={zone} />
    </section>
  );
}
