// Placeholder for the signed-in 'Coming Soon' screen; the staff-app work replaces its body.
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function ComingSoonPage() {
  return <PlaceholderPage heading="Coming Soon" />;
}
