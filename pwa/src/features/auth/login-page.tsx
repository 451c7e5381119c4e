// Sign in (docs/product/02-screens.md, "/login").
import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { clearLoginNotice, readLoginNotice, useAuth } from '../../lib/auth.tsx';
import { failureText } from './failure-text.ts';
import { isApiError } from '../../lib/api-errors.ts';
import { Alert } from '../../components/alert.tsx';
import { TextField } from '../../components/form-field.tsx';
import { AuthCard, AuthEmailField, AuthSubmit } from './auth-card.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { login } from '../../data/auth.ts';
import { SERVER_UNREACHABLE_TEXT, useServerHealth } from './use-server-health.ts';
import { redirectTarget } from './redirect-target.ts';
import { WaitingForSignIn } from '../../components/offline/waiting-for-sign-in.tsx';

const SIGN_IN_FAILED = 'Failed to sign in. Please check your credentials.';

/**
 * A refused sign-in (400, wrong email or password) shows the page's own words, not the server's
 * (docs/product/08-errors.md); no answer, a server failure or a rate limit keep failureText's.
 */
function signInFailureText(err: unknown): string {
  if (isApiError(err) && err.status === 400) return SIGN_IN_FAILED;
  return failureText(err, { otherwise: 'Failed to login. Please try again later.', fallback: SIGN_IN_FAILED });
}

export default function LoginPage() {
  const { isAuthenticated, signIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  // Said once: a reload or a later visit does not say it again.
  const [notice] = useState(readLoginNotice);
  useEffect(clearLoginNotice, []);
  const { healthy, heardFrom } = useServerHealth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [signedIn, setSignedIn] = useState(false);
  useDocumentTitle('Sign in');

  if (isAuthenticated && !signedIn) return <Navigate to="/calendar" replace />;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setSubmitting(true);
    try {
      const { token } = await login({ email: email.trim(), password });
      setSignedIn(true);
      await signIn(token);
      navigate(redirectTarget(location), { replace: true });
    } catch (err) {
      setSignedIn(false);
      heardFrom(err);
      setError(signInFailureText(err));
      setSubmitting(false);
    }
  }

  return (
    <AuthCard title="Sign in to your account" sub="Welcome back. Enter your details to continue.">
      {/* One notice at a time: a failed attempt says why in its own words. */}
      {notice && !error && <Alert tone="success">{notice}</Alert>}
      {!healthy && !error && <Alert tone="error">{SERVER_UNREACHABLE_TEXT}</Alert>}
      {error && <Alert tone="error">{error}</Alert>}
      <WaitingForSignIn />
      <form onSubmit={onSubmit} noValidate={false}>
        <AuthEmailField id="login-email" value={email} onValueChange={setEmail} disabled={submitting} />
        <TextField
          label="Password"
          id="login-password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
          disabled={submitting}
        />
        <div className="auth-row">
          <Link to="/forgot-password">Forgot your password?</Link>
        </div>
        <AuthSubmit busy={submitting} busyLabel="Signing in..." label="Sign in" disabled={submitting} />
      </form>
      <div className="auth-links">
        <Link to="/register">Don't have an account? Sign up</Link>
      </div>
    </AuthCard>
  );
}
