// Placeholder for the signed-in 'Your Settings' screen; the staff-app work replaces its body.
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function SettingsPage() {
  return <PlaceholderPage heading="Your Settings" />;
}
