import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_LABELS,
  NOTIFY_MESSAGES,
  type NotificationChannel,
  type NotificationKind,
  type NotificationSettings,
} from '@campus/contract';
import { serverMessageOf } from '../../../api/client';
import {
  getNotificationSettings,
  notificationKeys,
  putNotificationSettings,
} from '../../../api/notifications';
import { queryClient } from '../../../api/queryClient';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ErrorState } from '../../../ui/ErrorState';
import { BellIcon } from '../../../ui/icons';
import { PageContainer, PageHeader } from '../../../ui/PageContainer';
import { Spinner } from '../../../ui/Spinner';
import { toast } from '../../../ui/toast';
import { useDocumentTitle } from '../../../ui/useDocumentTitle';
import { currentPushState, disablePush, enablePush, type PushState } from '../push';

const PUSH_TEXT: Record<PushState, string> = {
  unsupported:
    'This browser cannot show push notifications. On iPhone, add Campus Market to your home screen first.',
  denied: 'Notifications are blocked for this site. Allow them in your browser settings to turn push on.',
  off: 'Get offers, meet-up reminders and matches on this device even when Campus Market is closed.',
  on: 'This device gets push notifications when you are not using Campus Market.',
};

function PushCard() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void currentPushState().then(setState);
  }, []);
  async function toggle() {
    setBusy(true);
    try {
      const next = state === 'on' ? await disablePush() : await enablePush();
      setState(next);
      if (next === 'on') toast.success('Push notifications are on for this device');
      if (next === 'off' && state === 'on') toast.success('Push notifications are off for this device');
    } catch (error) {
      toast.error(serverMessageOf(error) ?? 'Could not change push notifications. Try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center">
      <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <BellIcon />
      </span>
      <div className="flex-1">
        <h2 className="font-semibold text-slate-900">Push notifications on this device</h2>
        <p className="mt-1 text-sm text-slate-700" aria-live="polite">
          {state ? PUSH_TEXT[state] : 'Checking this browser…'}
        </p>
      </div>
      {(state === 'off' || state === 'on') && (
        <Button
          variant={state === 'on' ? 'secondary' : 'primary'}
          loading={busy}
          onClick={() => void toggle()}
        >
          {state === 'on' ? 'Turn off' : 'Turn on'}
        </Button>
      )}
    </Card>
  );
}

/** Which kinds arrive by e-mail and push (GET/PUT /users/me/notification-settings). */
export default function NotificationSettingsPage() {
  useDocumentTitle('Notification settings');
  const query = useQuery({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => getNotificationSettings(signal),
  });

  async function change(kind: NotificationKind, channel: NotificationChannel, value: boolean) {
    const previous = queryClient.getQueryData<NotificationSettings>(notificationKeys.settings());
    if (previous) {
      queryClient.setQueryData<NotificationSettings>(notificationKeys.settings(), {
        kinds: { ...previous.kinds, [kind]: { ...previous.kinds[kind], [channel]: value } },
      });
    }
    try {
      const saved = await putNotificationSettings({ [kind]: { [channel]: value } } as Partial<
        NotificationSettings['kinds']
      >);
      queryClient.setQueryData(notificationKeys.settings(), saved);
    } catch (error) {
      if (previous) queryClient.setQueryData(notificationKeys.settings(), previous);
      toast.error(serverMessageOf(error) ?? 'Could not save. Try again.');
    }
  }

  return (
    <PageContainer width="default">
      <PageHeader title="Notification settings" description={NOTIFY_MESSAGES.settingsIntro} />
      <PushCard />
      {query.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner />
        </div>
      ) : query.isError ? (
        <ErrorState title="Could not load your settings" onRetry={() => void query.refetch()} />
      ) : (
        <Card padding="none" className="overflow-hidden">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">E-mail and push for each kind of notification</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-700">
                <th scope="col" className="px-4 py-3 font-semibold">
                  Notify me about
                </th>
                <th scope="col" className="w-20 px-2 py-3 text-center font-semibold">
                  E-mail
                </th>
                <th scope="col" className="w-20 px-2 py-3 text-center font-semibold">
                  Push
                </th>
              </tr>
            </thead>
            <tbody>
              {NOTIFICATION_KINDS.map((kind) => (
                <tr key={kind} className="border-b border-slate-100 last:border-0">
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                    {NOTIFICATION_KIND_LABELS[kind]}
                  </th>
                  {(['email', 'push'] as const).map((channel) => (
                    <td key={channel} className="px-2 py-3 text-center">
                      <input
                        type="checkbox"
                        className="h-5 w-5 accent-brand-700"
                        aria-label={`${channel === 'email' ? 'E-mail' : 'Push'}: ${NOTIFICATION_KIND_LABELS[kind]}`}
                        checked={query.data.kinds[kind][channel]}
                        onChange={(e) => void change(kind, channel, e.target.checked)}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </PageContainer>
  );
}
