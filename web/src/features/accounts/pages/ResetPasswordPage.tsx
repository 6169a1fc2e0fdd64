import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LIMITS, MESSAGES, resetConfirmSchema } from '@campus/contract';
import { firstError } from '../../../ui/schemaErrors';
import { confirmPasswordReset, requestPasswordReset } from '../../../api/accounts';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { KeyIcon } from '../../../ui/icons';
import { PasswordField } from '../../../ui/PasswordField';
import { toast } from '../../../ui/toast';
import { useCooldown } from '../../../ui/useCooldown';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { AuthLayout } from '../components/AuthLayout';
import { CodeField } from '../components/CodeField';
import { CodeHints } from '../components/CodeHints';
import { EmailField } from '../components/EmailField';
import { codeError, emailError, focusFirstError, normalizeEmail } from '../validation';

const RESEND_COOLDOWN_S = 30;

function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError)
    return error.serverMessage ?? (error.isNetworkError ? fallback : error.message);
  return fallback;
}

export default function ResetPasswordPage() {
  useDocumentTitle('Reset your password');
  const navigate = useNavigate();
  const emailFormRef = useRef<HTMLFormElement>(null);
  const resetFormRef = useRef<HTMLFormElement>(null);
  const [step, setStep] = useState<'email' | 'reset'>('email');
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ email?: string; newPassword?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);
  const cooldown = useCooldown(RESEND_COOLDOWN_S);

  async function sendCode(address: string): Promise<boolean> {
    setBusy(true);
    cooldown.start();
    const id = toast.loading(MESSAGES.resetSending);
    try {
      await requestPasswordReset(address);
      toast.success(MESSAGES.resetCodeSent, { id });
      return true;
    } catch (error) {
      toast.error(MESSAGES.failedToSendCode(messageOf(error, 'please try again later.')), { id });
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function onRequest(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const problem = emailError(email);
    setErrors({ email: problem ?? undefined });
    if (problem) {
      focusFirstError(emailFormRef.current);
      return;
    }
    const address = normalizeEmail(email);
    if (await sendCode(address)) {
      setSentTo(address);
      setStep('reset');
    }
  }

  async function onConfirm(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const found: { newPassword?: string; code?: string } = {};
    const next = firstError(resetConfirmSchema.shape.newPassword, newPassword);
    if (next) found.newPassword = next;
    const codeProblem = codeError(code);
    if (codeProblem) found.code = codeProblem;
    setErrors(found);
    if (found.newPassword || found.code) {
      focusFirstError(resetFormRef.current);
      return;
    }
    setBusy(true);
    try {
      await confirmPasswordReset({ email: sentTo, token: Number(code), newPassword });
      toast.success(MESSAGES.resetDone);
      navigate('/login', { state: { email: sentTo } });
    } catch (error) {
      toast.error(messageOf(error, MESSAGES.serverError));
      setBusy(false);
    }
  }

  const footer = (
    <>
      Remembered it?{' '}
      <Link to="/login" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
        Back to login
      </Link>
    </>
  );

  if (step === 'email') {
    return (
      <AuthLayout
        icon={<KeyIcon size={24} />}
        title="Reset your password"
        description="Enter the university e-mail you registered with and we'll send you a code."
        footer={footer}
      >
        <form ref={emailFormRef} onSubmit={onRequest} noValidate className="space-y-5">
          <EmailField
            label="Registered university email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrors({});
            }}
            error={errors.email}
          />
          <Button type="submit" size="lg" fullWidth loading={busy}>
            Get My Code
          </Button>
        </form>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      icon={<KeyIcon size={24} />}
      title="Choose a new password"
      description={
        <>
          Enter the code sent to{' '}
          <strong className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{sentTo}</strong> and your
          new password.
        </>
      }
      footer={footer}
    >
      <form ref={resetFormRef} onSubmit={onConfirm} noValidate className="space-y-5">
        <PasswordField
          label="New password"
          name="newPassword"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => {
            setNewPassword(e.target.value);
            setErrors((prev) => ({ ...prev, newPassword: undefined }));
          }}
          error={errors.newPassword}
          hint="At least 8 characters."
          maxLength={LIMITS.passwordMax}
        />
        <CodeField
          value={code}
          error={errors.code}
          onChange={(digits) => {
            setCode(digits);
            setErrors((prev) => ({ ...prev, code: undefined }));
          }}
        />
        <CodeHints />
        <Button type="submit" size="lg" fullWidth loading={busy}>
          Confirm the reset
        </Button>
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <button
            type="button"
            onClick={() => {
              setStep('email');
              setCode('');
              setErrors({});
            }}
            className="font-semibold text-slate-700 underline-offset-4 hover:underline"
          >
            Use a different email
          </button>
          <button
            type="button"
            disabled={busy || cooldown.remaining > 0}
            onClick={() => void sendCode(sentTo)}
            className="font-semibold text-brand-700 underline-offset-4 hover:underline disabled:cursor-not-allowed disabled:text-slate-500 disabled:no-underline"
          >
            {cooldown.remaining > 0 ? `Send the code again (${cooldown.remaining}s)` : 'Send the code again'}
          </button>
        </div>
      </form>
    </AuthLayout>
  );
}
