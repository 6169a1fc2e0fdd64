import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { loginSchema, MESSAGES } from '@campus/contract';
import { firstError } from '../../../ui/schemaErrors';
import { logIn } from '../../../api/accounts';
import { useCampusInfo } from '../../../api/campus';
import { ApiError } from '../../../api/client';
import { queryClient } from '../../../api/queryClient';
import { sessionEndReason, setSessionEndReason } from '../../../session/endReason';
import { useIsLoggedIn } from '../../../session/navigation';
import { nextQuery, returnPathOf } from '../../../session/returnTo';
import { setToken } from '../../../session/token';
import { Button } from '../../../ui/Button';
import { PasswordField } from '../../../ui/PasswordField';
import { toast } from '../../../ui/toast';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { AuthLayout } from '../components/AuthLayout';
import { EmailField } from '../components/EmailField';
import { FormAlert } from '../components/FormAlert';
import { UniversitySignIn } from '../components/UniversitySignIn';
import { emailFromState } from '../state';
import { emailError, focusFirstError, normalizeEmail } from '../validation';

interface Errors {
  email?: string;
  password?: string;
}

export default function LoginPage() {
  useDocumentTitle('Log in');
  const location = useLocation();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState(() => emailFromState(location.state) ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [unverified, setUnverified] = useState<{ message: string; email: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [passwordChanged] = useState(() => sessionEndReason() === 'password-changed');
  const loggedIn = useIsLoggedIn();
  // Where the student was going: the guard's `from`, or `?next=` (a shared listing, kept through
  // sign-up and the e-mailed code). Only a path of this app (safeReturnPath).
  const next = returnPathOf(location.state, location.search);
  const campus = useCampusInfo().data;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting) return;
    const found: Errors = {};
    const emailProblem = emailError(email);
    if (emailProblem) found.email = emailProblem;
    const passwordProblem = firstError(loginSchema.shape.password, password);
    if (passwordProblem) found.password = passwordProblem;
    setErrors(found);
    setUnverified(null);
    if (found.email || found.password) {
      focusFirstError(formRef.current);
      return;
    }
    const address = normalizeEmail(email);
    setSubmitting(true);
    try {
      const token = await logIn({ email: address, password });
      queryClient.clear();
      setSessionEndReason(null);
      setToken(token);
      navigate(next ?? '/dashboard', { replace: true });
    } catch (error) {
      setSubmitting(false);
      if (error instanceof ApiError && error.status === 401) {
        toast.error(MESSAGES.loginIncorrect);
      } else if (error instanceof ApiError && error.status === 403) {
        const message = error.serverMessage ?? MESSAGES.loginUnverified;
        toast.error(message);
        setUnverified({ message, email: address });
        focusFirstError(formRef.current);
      } else if (
        error instanceof ApiError &&
        (error.status === 429 || error.status === 400) &&
        error.serverMessage
      ) {
        toast.error(error.serverMessage);
      } else {
        toast.error(MESSAGES.loginFailedLater);
      }
    }
  }

  // a logged-in student has nothing to do here (after a login, `navigate` wins).
  if (loggedIn && !submitting) return <Navigate to={next ?? '/dashboard'} replace />;

  return (
    <AuthLayout
      title="Welcome back"
      description="Log in with your university e-mail to buy, sell and chat."
      footer={
        <>
          New here?{' '}
          <Link
            to={`/signup${nextQuery(next)}`}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Create an account
          </Link>
        </>
      }
    >
      <div className="mb-5">
        <UniversitySignIn campus={campus} next={next} />
      </div>
      <form ref={formRef} onSubmit={onSubmit} noValidate className="space-y-5">
        {passwordChanged && !unverified && (
          <FormAlert tone="info">
            <p>{MESSAGES.chatSessionRevoked}</p>
          </FormAlert>
        )}
        {unverified && (
          <FormAlert>
            <p>{unverified.message}</p>
            <Link
              to={`/verify?email=${encodeURIComponent(unverified.email)}${next ? `&next=${encodeURIComponent(next)}` : ''}`}
              state={{ email: unverified.email }}
              className="mt-1 inline-block font-semibold underline underline-offset-4"
            >
              Verify my email
            </Link>
          </FormAlert>
        )}
        <EmailField
          label="Email"
          autoComplete="username"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setErrors((prev) => ({ ...prev, email: undefined }));
          }}
          error={errors.email}
        />
        <div>
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setErrors((prev) => ({ ...prev, password: undefined }));
            }}
            error={errors.password}
          />
          <p className="mt-2 text-sm text-slate-600">
            Forgot your password?{' '}
            <Link to="/resetPass" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
              Reset Here
            </Link>
          </p>
        </div>
        <Button type="submit" size="lg" fullWidth loading={submitting}>
          Login
        </Button>
      </form>
    </AuthLayout>
  );
}
