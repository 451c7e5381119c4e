// Placeholder for the signed-in 'Calendar' screen; the staff-app work replaces its body.
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

export default function CalendarPage() {
  return <PlaceholderPage heading="Calendar" />;
}
