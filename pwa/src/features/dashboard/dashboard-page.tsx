// Placeholder for the signed-in 'Company Dashboard' screen; the staff-app work replaces its body.
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function DashboardPage() {
  return <PlaceholderPage heading="Company Dashboard" />;
}
