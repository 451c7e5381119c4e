// Request a password reset link (docs/product/02-screens.md and 08-errors.md).
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { isApiError } from '../../lib/api-errors.ts';
import { Alert } from '../../components/alert.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { requestPasswordReset } from '../../data/auth.ts';
import { AuthCard, AuthEmailField, AuthSubmit } from './auth-card.tsx';
import { failureText } from './failure-text.ts';

const SEND_FAILED = 'Failed to send password reset email. Please try again.';
const SENT_FALLBACK = 'If an account exists for that email, a password reset link is on its way.';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  useDocumentTitle('Forgot your password?');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    setSubmitting(true);
    try {
      const res = await requestPasswordReset({ email_or_username: email.trim() });
      setResult({ tone: 'success', text: res?.message || SENT_FALLBACK });
    } catch (err) {
      setResult({
        tone: 'error',
        // docs/product/08-errors.md: 400 'Invalid email address', a server failure the page's own words
        // (never "Service Unavailable"); a refusal such as a rate limit keeps the server's.
        text:
          isApiError(err) && err.status === 400
            ? 'Invalid email address'
            : failureText(err, { otherwise: SEND_FAILED, fallback: SEND_FAILED }),
      });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthCard title="Forgot your password?" sub="Enter your email address and we will send you a link to set a new password.">
      {result && <Alert tone={result.tone}>{result.text}</Alert>}
      <form onSubmit={onSubmit}>
        <AuthEmailField id="forgot-email" value={email} onValueChange={setEmail} disabled={submitting} />
        <AuthSubmit busy={submitting} busyLabel="Sending..." label="Send reset link" disabled={submitting} />
      </form>
      <div className="auth-links">
        <Link to="/login">Back to login</Link>
      </div>
    </AuthCard>
  );
}
