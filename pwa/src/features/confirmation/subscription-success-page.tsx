// Return page of a completed checkout (docs/product/02-screens.md, /success).
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { ConfirmAction, ConfirmCard } from '../../components/confirm-card.tsx';

export default function SubscriptionSuccessPage() {
  useDocumentTitle('Subscription active');
  return (
    <ConfirmCard
      title="Thank you! Your subscription is active."
      text="Your plan is being applied to your account. It can take a moment to show in Company Settings."
    >
      <ConfirmAction to="/calendar">Go to Dashboard</ConfirmAction>
    </ConfirmCard>
  );
}
