import { useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES, TIMINGS } from '@campus/contract';
import { resendVerificationCode, verifyEmail } from '../../../api/accounts';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { MailIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { useCooldown } from '../../../ui/useCooldown';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { AuthLayout } from '../components/AuthLayout';
import { CodeField } from '../components/CodeField';
import { CodeHints } from '../components/CodeHints';
import { EmailField } from '../components/EmailField';
import { emailFromState } from '../state';
import { nextQuery, returnPathOf } from '../../../session/returnTo';
import { codeError, emailError, focusFirstError, normalizeEmail } from '../validation';

const RESEND_COOLDOWN_S = 30;

/** Spec §8: 400 → incorrect/expired (or the server's words); anything else → try again later. */
function verifyFailure(error: unknown): string {
  if (error instanceof ApiError && !error.isNetworkError) {
    if (error.status === 400) return error.serverMessage ?? MESSAGES.verifyFailed;
    if (error.status < 500 && error.serverMessage) return error.serverMessage;
  }
  return MESSAGES.verifyFailedLater;
}

export default function VerifyPage() {
  useDocumentTitle('Verify your email');
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const knownEmail = emailFromState(location.state) ?? params.get('email');
  // Where the student was going before signing up (a shared listing): kept through login.
  const next = returnPathOf(location.state, location.search);
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState(knownEmail ?? '');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ email?: string; code?: string }>({});
  const [submitting, setSubmitting] = useState(false);
  const [resending, setResending] = useState(false);
  const cooldown = useCooldown(RESEND_COOLDOWN_S);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (submitting) return;
    const found: { email?: string; code?: string } = {};
    const emailProblem = emailError(email);
    if (emailProblem) found.email = emailProblem;
    const codeProblem = codeError(code);
    if (codeProblem) found.code = codeProblem;
    setErrors(found);
    if (found.email || found.code) {
      focusFirstError(formRef.current);
      return;
    }
    const address = normalizeEmail(email);
    setSubmitting(true);
    const id = toast.loading('Verifying your code…', { duration: TIMINGS.verifyToastMs });
    try {
      await verifyEmail({ email: address, token: Number(code) });
      toast.success(MESSAGES.verified, { id });
      navigate(`/login${nextQuery(next)}`, { state: { email: address } });
    } catch (error) {
      toast.error(verifyFailure(error), { id });
      setSubmitting(false);
    }
  }

  async function onResend() {
    const problem = emailError(email);
    if (problem) {
      setErrors((prev) => ({ ...prev, email: problem }));
      focusFirstError(formRef.current);
      return;
    }
    setResending(true);
    cooldown.start();
    const id = toast.loading('Sending a new code…', { duration: TIMINGS.verifyToastMs });
    try {
      await resendVerificationCode(normalizeEmail(email));
      toast.success(MESSAGES.codeResent, { id });
    } catch (error) {
      const message =
        error instanceof ApiError && error.serverMessage ? error.serverMessage : MESSAGES.verifyFailedLater;
      toast.error(message, { id });
    } finally {
      setResending(false);
    }
  }

  return (
    <AuthLayout
      icon={<MailIcon size={24} />}
      title="Check your email"
      description={
        knownEmail ? (
          <>
            We sent a 6-digit code to{' '}
            <strong className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{knownEmail}</strong>.
            Enter it below to verify your account.
          </>
        ) : (
          'Enter your university e-mail and the 6-digit code we sent to it.'
        )
      }
      footer={
        <>
          Already verified?{' '}
          <Link
            to={`/login${nextQuery(next)}`}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Log in
          </Link>
        </>
      }
    >
      <form ref={formRef} onSubmit={onSubmit} noValidate className="space-y-5">
        {!knownEmail && (
          <EmailField
            label="University email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrors((prev) => ({ ...prev, email: undefined }));
            }}
            error={errors.email}
          />
        )}
        <CodeField
          value={code}
          error={errors.code}
          onChange={(digits) => {
            setCode(digits);
            setErrors((prev) => ({ ...prev, code: undefined }));
          }}
        />
        <CodeHints />
        <Button type="submit" size="lg" fullWidth loading={submitting}>
          Verify
        </Button>
        <p className="text-center text-sm text-slate-600">
          Didn't get a code?{' '}
          <button
            type="button"
            onClick={onResend}
            disabled={resending || cooldown.remaining > 0}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline disabled:cursor-not-allowed disabled:text-slate-500 disabled:no-underline"
          >
            {cooldown.remaining > 0 ? `Send a new code (${cooldown.remaining}s)` : 'Send a new code'}
          </button>
        </p>
      </form>
    </AuthLayout>
  );
}
