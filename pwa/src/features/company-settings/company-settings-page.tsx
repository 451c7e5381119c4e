// Placeholder for the signed-in 'Company Settings' screen; the staff-app work replaces its body.
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function CompanySettingsPage() {
  return <PlaceholderPage heading="Company Settings" />;
}
