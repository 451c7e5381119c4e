// Placeholder for the signed-in 'Administration' screen; the staff-app work replaces its body.
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function AdminPage() {
  return <PlaceholderPage heading="Administration" />;
}
