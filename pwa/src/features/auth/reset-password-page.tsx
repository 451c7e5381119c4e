// Set a new password from an emailed link (docs/product/02-screens.md, 04-states.md, 05-validation.md and 08-errors.md). Also the page
// behind invitation links ("set your password"), so the wording fits both.
//
// The token is read once and removed from the address bar at once, so it never lands in
// history, bookmarks or a Referer header.
import { useEffect, useLayoutEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { isApiError, messageFor } from '../../lib/api-errors.ts';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { confirmPasswordReset, validateResetToken } from '../../data/auth.ts';
import { failureText } from './failure-text.ts';
import { AuthCard, AuthSubmit, NewPasswordFields } from './auth-card.tsx';

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

  // Drop ?token= from the address bar (keeping the router's history state) before the first paint:
  // Preact, which renders the public pages (docs/decisions/30-csp-and-small-public-pages.md), runs
  // plain effects only after the browser has painted.
  useLayoutEffect(() => {
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
      // docs/product/08-errors.md: 400 the token's text, a server failure the page's own words (never
      // "Service Unavailable"); a refusal such as a rate limit keeps the server's.
      setError(
        isApiError(err) && err.status === 400
          ? RESET_TEXT.invalidToken
          : failureText(err, { otherwise: RESET_TEXT.failed, fallback: RESET_TEXT.failed }),
      );
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthCard title="Set a new password">
      {(tokenState === 'missing' || tokenState === 'invalid') && (
        <>
          <Alert tone="error">{tokenState === 'missing' ? RESET_TEXT.noToken : tokenError}</Alert>
          <div className="auth-links">
            <Link to="/forgot-password">Request a new reset link</Link>
            <Link to="/login">Back to login</Link>
          </div>
        </>
      )}
      {tokenState === 'validating' && <Loading label={RESET_TEXT.validating} />}
      {tokenState === 'valid' && (
        <>
          <p className="auth-sub">Choose a password of at least 6 characters.</p>
          {error && <Alert tone="error">{error}</Alert>}
          {success && <Alert tone="success">{success}</Alert>}
          <form onSubmit={onSubmit} noValidate>
            <fieldset disabled={submitting || success !== null}>
              <NewPasswordFields
                idPrefix="reset"
                label="New password"
                password={password}
                confirm={confirm}
                onPasswordChange={setPassword}
                onConfirmChange={setConfirm}
              />
              <AuthSubmit busy={submitting} busyLabel="Resetting..." label="Reset password" />
            </fieldset>
          </form>
          <div className="auth-links">
            <Link to="/login">Back to login</Link>
          </div>
        </>
      )}
    </AuthCard>
  );
}
