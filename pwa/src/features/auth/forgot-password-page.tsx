// Request a password reset link (SPEC.md sections 2 and 8).
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { messageFor } from '../../lib/api-errors.ts';
import { Alert } from '../../components/alert.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { requestPasswordReset } from '../../data/auth.ts';
import { FormField } from '../../components/form-field.tsx';

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
        text: messageFor(err, {
          byStatus: { 400: 'Invalid email address' },
          fallback: 'Failed to send password reset email. Please try again.',
        }),
      });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="page-narrow">
      <div className="card auth-card">
        <h1>Forgot your password?</h1>
        <p className="auth-sub">Enter your email address and we will send you a link to set a new password.</p>
        {result && <Alert tone={result.tone}>{result.text}</Alert>}
        <form onSubmit={onSubmit}>
          <FormField label="Email address" id="forgot-email">
            <input
              className="input"
              type="email"
              name="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              disabled={submitting}
            />
          </FormField>
          <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
            {submitting ? 'Sending...' : 'Send reset link'}
          </button>
        </form>
        <div className="auth-links">
          <Link to="/login">Back to login</Link>
        </div>
      </div>
    </div>
  );
}
