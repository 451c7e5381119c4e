// Placeholder for the signed-in 'Upgrade' screen; the staff-app work replaces its body.
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function UpgradePage() {
  return <PlaceholderPage heading="Upgrade" />;
}
