// Create an account (docs/product/02-screens.md, 04-states.md and 05-validation.md). Without parameters it registers a business
// owner and a new company; with ?company=<slug> it is a customer sign-up for that company
// (docs/decisions/04-customers-and-anonymous-booking.md).
import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../lib/auth.tsx';
import { Alert } from '../../components/alert.tsx';
import { TextField } from '../../components/form-field.tsx';
import { AuthCard, AuthEmailField, AuthSubmit, NewPasswordFields } from './auth-card.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { registerPrefill } from '../../lib/register-prefill.ts';
import { register } from '../../data/auth.ts';
import { getCompanyBySlug, type CompanyView } from '../../data/companies.ts';
import { isApiError } from '../../lib/api-errors.ts';
import { SERVER_UNREACHABLE_TEXT, useServerHealth } from './use-server-health.ts';
import { failureText } from './failure-text.ts';

export const REGISTER_TEXT = {
  required: 'All fields are required',
  mismatch: 'Passwords do not match',
  tooShort: 'Password must be at least 6 characters long',
  invalidEmail: 'Please enter a valid email address.',
  failed: 'Registration failed. Please try again.',
  otherwise: 'Failed to register. Please try again later.',
  companyMissing: 'Company not found',
  companyMissingHelp: 'Check the link you were given, or sign up from the business’s booking page.',
} as const;

function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export default function RegisterPage() {
  const { isAuthenticated, signIn } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const companySlug = params.get('company')?.trim() || null;
  const isCustomerSignUp = companySlug !== null;
  const { healthy, heardFrom } = useServerHealth();

  // After an anonymous booking, its name and email (lib/register-prefill.ts): the customer need not type them again.
  const location = useLocation();
  const prefill = registerPrefill(isCustomerSignUp ? location.state : null);
  const [name, setName] = useState(prefill.name);
  const [email, setEmail] = useState(prefill.email);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [companyName, setCompanyName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [registered, setRegistered] = useState(false);
  const [company, setCompany] = useState<CompanyView | null>(null);
  /** The ?company= link names no business: the form could only fail, so it is not shown. */
  const [companyMissing, setCompanyMissing] = useState(false);
  useDocumentTitle('Create your account');

  useEffect(() => {
    if (!companySlug) return;
    const controller = new AbortController();
    getCompanyBySlug(companySlug, controller.signal)
      .then(setCompany)
      .catch((err: unknown) => {
        setCompany(null);
        if (isApiError(err) && err.status === 404) setCompanyMissing(true);
      });
    return () => controller.abort();
  }, [companySlug]);

  if (isAuthenticated && !registered) return <Navigate to="/calendar" replace />;

  // The mismatch message goes away as soon as either password is edited (docs/product/05-validation.md).
  const clearMismatch = () => setError((e) => (e === REGISTER_TEXT.mismatch ? null : e));

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const fields = [name, email, password, confirm, ...(isCustomerSignUp ? [] : [companyName])];
    if (fields.some((f) => !f.trim())) return setError(REGISTER_TEXT.required);
    const emailInput = e.currentTarget.elements.namedItem('email') as HTMLInputElement | null;
    if (emailInput && !emailInput.validity.valid) return setError(REGISTER_TEXT.invalidEmail);
    if (password !== confirm) return setError(REGISTER_TEXT.mismatch);
    if (password.length < 6) return setError(REGISTER_TEXT.tooShort);

    setSubmitting(true);
    try {
      const result = await register(
        isCustomerSignUp
          ? { name: name.trim(), email: email.trim(), password, role: 'customer', company_slug: companySlug! }
          : {
              name: name.trim(),
              email: email.trim(),
              password,
              role: 'admin',
              company_name: companyName.trim(),
              timezone: browserTimezone(),
            },
      );
      if (result?.token) {
        setRegistered(true);
        await signIn(result.token);
        navigate('/calendar', { replace: true });
        return;
      }
      // 202: the company already knew this email; a set-password link was emailed instead.
      setNotice(result?.message ?? 'Check your email to finish setting up your account.');
      setSubmitting(false);
    } catch (err) {
      setRegistered(false);
      heardFrom(err);
      setError(failureText(err, { otherwise: REGISTER_TEXT.otherwise, fallback: REGISTER_TEXT.failed }));
      setSubmitting(false);
    }
  }

  if (companyMissing) {
    return (
      <AuthCard title="Create your account">
        <Alert tone="error">{REGISTER_TEXT.companyMissing}</Alert>
        <p>{REGISTER_TEXT.companyMissingHelp}</p>
        <div className="auth-links">
          <Link to="/">Go Home</Link>
        </div>
      </AuthCard>
    );
  }

  if (notice) {
    return (
      <AuthCard title="Check your email">
        <Alert tone="success">{notice}</Alert>
        <div className="auth-links">
          <Link to="/login">Back to login</Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Create your account"
      sub={
        isCustomerSignUp
          ? company
            ? `Sign up as a customer of ${company.name} to see and manage your appointments.`
            : 'Sign up to see and manage your appointments.'
          : 'Start your 14-day free trial. No credit card needed.'
      }
    >
      {/* One notice at a time: a failed attempt says why in its own words. */}
      {!healthy && !error && <Alert tone="error">{SERVER_UNREACHABLE_TEXT}</Alert>}
      {error && <Alert tone="error">{error}</Alert>}
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={submitting}>
          <TextField label="Full name" id="reg-name" name="name" autoComplete="name" required value={name} onValueChange={setName} />
          <AuthEmailField id="reg-email" value={email} onValueChange={setEmail} />
          <NewPasswordFields
            idPrefix="reg"
            label="Password"
            hint="At least 6 characters."
            named
            password={password}
            confirm={confirm}
            onPasswordChange={(v) => {
              setPassword(v);
              clearMismatch();
            }}
            onConfirmChange={(v) => {
              setConfirm(v);
              clearMismatch();
            }}
          />
          {!isCustomerSignUp && (
            <TextField
              label="Company name"
              id="reg-company"
              name="company_name"
              autoComplete="organization"
              required
              value={companyName}
              onValueChange={setCompanyName}
            />
          )}
          <AuthSubmit busy={submitting} busyLabel="Creating account..." label="Create account" />
        </fieldset>
      </form>
      <div className="auth-links">
        <Link to="/login">Already have an account? Sign in</Link>
      </div>
    </AuthCard>
  );
}
