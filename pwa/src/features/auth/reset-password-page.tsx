// Set a new password from an emailed link (SPEC.md sections 2, 4, 5 and 8). Also the page
// behind invitation links ("set your password"), so the wording fits both.
//
// The token is read once and removed from the address bar at once, so it never lands in
// history, bookmarks or a Referer header.
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { isApiError, messageFor } from '../../lib/api-errors.ts';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { confirmPasswordReset, validateResetToken } from '../../data/auth.ts';
import { FormField } from '../../components/form-field.tsx';

export const RESET_TEXT = {
  noToken: 'Invalid reset link. Please request a new password reset.',
  validating: 'Validating reset token...',
  tooShort: 'Password must be at least 6 characters long',
  mismatch: 'Passwords do not match',
  missingToken: 'Invalid reset token',
  invalidToken: 'Invalid or expired reset token',
  failed: 'Failed to reset password. Please try again.',
  done: 'Your password has been reset. Redirecting to login...',
} as const;

const REDIRECT_DELAY_MS = 2_000;

function readTokenOnce(): string | null {
  return new URLSearchParams(window.location.search).get('token');
}

type TokenState = 'missing' | 'validating' | 'valid' | 'invalid';

export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [token] = useState(readTokenOnce);
  const [tokenState, setTokenState] = useState<TokenState>(token ? 'validating' : 'missing');
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  useDocumentTitle('Set a new password');

  // Drop ?token= from the address bar (keeping the router's history state).
  useEffect(() => {
    if (new URLSearchParams(window.location.search).has('token')) {
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.hash);
    }
  }, []);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    validateResetToken(token, controller.signal)
      .then(() => setTokenState('valid'))
      .catch((err) => {
        if (controller.signal.aborted) return;
        if (isApiError(err) && err.status === null) {
          // Unreachable: let the user try anyway; confirm will report a bad token.
          setTokenState('valid');
          return;
        }
        setTokenError(messageFor(err, { byStatus: { 400: RESET_TEXT.invalidToken }, fallback: RESET_TEXT.invalidToken }));
        setTokenState('invalid');
      });
    return () => controller.abort();
  }, [token]);

  useEffect(() => {
    if (!success) return;
    const id = setTimeout(() => navigate('/login', { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(id);
  }, [success, navigate]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!token) return setError(RESET_TEXT.missingToken);
    if (password.length < 6) return setError(RESET_TEXT.tooShort);
    if (password !== confirm) return setError(RESET_TEXT.mismatch);
    setSubmitting(true);
    try {
      const res = await confirmPasswordReset({ token, new_password: password });
      setSuccess(res?.message ? `${res.message} Redirecting to login...` : RESET_TEXT.done);
    } catch (err) {
      setError(messageFor(err, { byStatus: { 400: RESET_TEXT.invalidToken }, fallback: RESET_TEXT.failed }));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="page-narrow">
      <div className="card auth-card">
        <h1>Set a new password</h1>
        {tokenState === 'missing' && (
          <>
            <Alert tone="error">{RESET_TEXT.noToken}</Alert>
            <div className="auth-links">
              <Link to="/forgot-password">Request a new reset link</Link>
              <Link to="/login">Back to login</Link>
            </div>
          </>
        )}
        {tokenState === 'validating' && <Loading label={RESET_TEXT.validating} />}
        {tokenState === 'invalid' && (
          <>
            <Alert tone="error">{tokenError}</Alert>
            <div className="auth-links">
              <Link to="/forgot-password">Request a new reset link</Link>
              <Link to="/login">Back to login</Link>
            </div>
          </>
        )}
        {tokenState === 'valid' && (
          <>
            <p className="auth-sub">Choose a password of at least 6 characters.</p>
            {error && <Alert tone="error">{error}</Alert>}
            {success && <Alert tone="success">{success}</Alert>}
            <form onSubmit={onSubmit} noValidate>
              <fieldset disabled={submitting || success !== null}>
                <FormField label="New password" id="reset-password">
                  <input
                    className="input"
                    type="password"
                    autoComplete="new-password"
                    required
                    minLength={6}
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                  />
                </FormField>
                <FormField label="Confirm password" id="reset-confirm">
                  <input
                    className="input"
                    type="password"
                    autoComplete="new-password"
                    required
                    value={confirm}
                    onChange={(e) => setConfirm(e.target.value)}
                  />
                </FormField>
                <button type="submit" className="btn btn-primary btn-block">
                  {submitting ? 'Resetting...' : 'Reset password'}
                </button>
              </fieldset>
            </form>
            <div className="auth-links">
              <Link to="/login">Back to login</Link>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
