import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { SSO_MESSAGES } from '@campus/contract';
import { exchangeSsoCode } from '../../../api/accounts';
import { ApiError } from '../../../api/client';
import { queryClient } from '../../../api/queryClient';
import { setSessionEndReason } from '../../../session/endReason';
import { setToken } from '../../../session/token';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { AuthLayout } from '../components/AuthLayout';
import { FormAlert } from '../components/FormAlert';
import { takeSsoReturn } from '../ssoReturn';

/**
 * /sso/done#code=…: where university sign-in ends (features.md §G). The one-time code (60 s,
 * single use) is in the fragment, which no server or log ever sees; it is traded for the token
 * login gives, stored exactly as login stores it, and the student lands where they were going.
 */
export default function SsoDonePage() {
  useDocumentTitle('Signing in');
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  // Once per page: React's development double effect must not spend the code twice.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = new URLSearchParams(window.location.hash.slice(1)).get('code');
    // The code leaves the address bar and the history at once.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!code) {
      setFailure(SSO_MESSAGES.exchangeInvalid);
      return;
    }
    exchangeSsoCode(code).then(
      (token) => {
        queryClient.clear();
        setSessionEndReason(null);
        setToken(token);
        navigate(takeSsoReturn() ?? '/dashboard', { replace: true });
      },
      (error: unknown) => {
        setFailure(
          error instanceof ApiError && error.serverMessage
            ? error.serverMessage
            : SSO_MESSAGES.exchangeInvalid,
        );
      },
    );
  }, [navigate]);

  return (
    <AuthLayout title={failure ? SSO_MESSAGES.refusedTitle : SSO_MESSAGES.finishing}>
      {failure ? (
        <FormAlert>
          <p>{failure}</p>
          <Link to="/login" className="mt-1 inline-block font-semibold underline underline-offset-4">
            {SSO_MESSAGES.backToLogin}
          </Link>
        </FormAlert>
      ) : (
        <p role="status" className="text-slate-700">
          {SSO_MESSAGES.finishing}
        </p>
      )}
    </AuthLayout>
  );
}
