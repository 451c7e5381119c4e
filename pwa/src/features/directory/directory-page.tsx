// Placeholder for the signed-in 'Directory' screen; the staff-app work replaces its body.
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function DirectoryPage() {
  return <PlaceholderPage heading="Directory" />;
}
