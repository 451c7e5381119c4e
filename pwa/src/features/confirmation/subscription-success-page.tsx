// Return page of a completed checkout (SPEC.md section 2, /success).
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { CheckIcon } from '../../components/status-icons.tsx';
import '../../styles/confirmation.css';

export default function SubscriptionSuccessPage() {
  useDocumentTitle('Subscription active');
  return (
    <div className="page-narrow">
      <div className="card confirm-card">
        <div className="confirm-icon">
          <CheckIcon />
        </div>
        <h1>Thank you! Your subscription is active.</h1>
        <p>Your plan is being applied to your account. It can take a moment to show in Company Settings.</p>
        <div className="confirm-actions">
          <Link to="/calendar" className="btn btn-primary">
            Go to Dashboard
          </Link>
        </div>
      </div>
    </div>
  );
}
