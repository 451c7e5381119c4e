// Return page of an abandoned checkout (docs/product/02-screens.md, /cancel).
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { ConfirmAction, ConfirmCard } from '../../components/confirm-card.tsx';

export default function PaymentCancelledPage() {
  useDocumentTitle('Payment Cancelled');
  return (
    <ConfirmCard tone="neutral" title="Payment Cancelled" text="No payment was taken. You can choose a plan whenever you are ready.">
      <ConfirmAction to="/pricing">Back to Pricing</ConfirmAction>
    </ConfirmCard>
  );
}
