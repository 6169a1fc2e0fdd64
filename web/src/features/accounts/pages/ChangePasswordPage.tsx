import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { changePasswordSchema, LIMITS, MESSAGES, TIMINGS } from '@campus/contract';
import { firstError } from '../../../ui/schemaErrors';
import { changePassword } from '../../../api/accounts';
import { ApiError } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { KeyIcon } from '../../../ui/icons';
import { PageContainer } from '../../../ui/PageContainer';
import { PasswordField } from '../../../ui/PasswordField';
import { toast } from '../../../ui/toast';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { focusFirstError } from '../validation';

export default function ChangePasswordPage() {
  useDocumentTitle('Change your password');
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<{ currentPassword?: string; newPassword?: string }>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy || done) return;
    const found: { currentPassword?: string; newPassword?: string } = {};
    const current = firstError(changePasswordSchema.shape.currentPassword, currentPassword);
    if (current) found.currentPassword = current;
    const next = firstError(changePasswordSchema.shape.newPassword, newPassword);
    if (next) found.newPassword = next;
    setErrors(found);
    if (found.currentPassword || found.newPassword) {
      focusFirstError(formRef.current);
      return;
    }
    setBusy(true);
    try {
      // The answer carries a fresh token (x-auth-token) that the API client stores: this session stays logged in.
      await changePassword({ currentPassword, newPassword });
      setDone(true);
      toast.success(MESSAGES.updateSuccess);
      redirectTimer.current = window.setTimeout(() => navigate('/all_listings'), TIMINGS.passwordRedirectMs);
    } catch (error) {
      const message =
        error instanceof ApiError
          ? (error.serverMessage ?? (error.isNetworkError ? 'Please try again later.' : error.message))
          : 'Please try again later.';
      toast.error(MESSAGES.updateFailed(message), { duration: TIMINGS.toastMs });
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageContainer width="narrow" className="sm:py-12">
      <Card padding="lg">
        <div className="mb-5 flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
          <KeyIcon size={24} />
        </div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Change your password</h1>
        <p className="mt-2 text-slate-600">
          You stay logged in here; other devices where you're logged in will be signed out.
        </p>
        <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-8 space-y-5">
          <PasswordField
            label="Current password"
            name="currentPassword"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => {
              setCurrentPassword(e.target.value);
              setErrors((prev) => ({ ...prev, currentPassword: undefined }));
            }}
            error={errors.currentPassword}
          />
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
          <Button type="submit" size="lg" fullWidth loading={busy} disabled={done}>
            Update My Password
          </Button>
        </form>
      </Card>
    </PageContainer>
  );
}
