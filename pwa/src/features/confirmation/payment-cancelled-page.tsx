// Return page of an abandoned checkout (SPEC.md section 2, /cancel).
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { CrossIcon } from '../../components/status-icons.tsx';
import '../../styles/confirmation.css';

export default function PaymentCancelledPage() {
  useDocumentTitle('Payment Cancelled');
  return (
    <div className="page-narrow">
      <div className="card confirm-card">
        <div className="confirm-icon neutral">
          <CrossIcon />
        </div>
        <h1>Payment Cancelled</h1>
        <p>No payment was taken. You can choose a plan whenever you are ready.</p>
        <div className="confirm-actions">
          <Link to="/pricing" className="btn btn-primary">
            Back to Pricing
          </Link>
        </div>
      </div>
    </div>
  );
}
