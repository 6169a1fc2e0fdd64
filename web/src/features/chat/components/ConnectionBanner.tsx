import { useEffect, useState } from 'react';
import type { RealtimeStatus } from '../../../api/stomp';
import { InfoIcon } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { useOnline } from '../../../ui/useOnline';

/** Shows `value` only after it has been true for `delayMs` (no flash on fast connects). */
function useDelayed(value: boolean, delayMs: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!value) {
      setShown(false);
      return;
    }
    const t = window.setTimeout(() => setShown(true), delayMs);
    return () => window.clearTimeout(t);
  }, [value, delayMs]);
  return value && shown;
}

/**
 * Spec §4 connection state, visible: 'Connecting…' on entry (after a short grace), 'Reconnecting…'
 * while the link is down (retried every 5 s), with what happens to messages meanwhile. Offline it
 * says so at once, without a spinner: nothing is being tried until the network is back.
 */
export function ConnectionBanner({ status, pendingCount }: { status: RealtimeStatus; pendingCount: number }) {
  const online = useOnline();
  const down = status === 'connecting' || status === 'reconnecting' || status === 'idle';
  const show = useDelayed(down || !online, status === 'reconnecting' || !online ? 0 : 700);
  let text: string | null = null;
  if (show) {
    const label = !online ? 'You are offline.' : status === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
    const detail =
      pendingCount > 0
        ? ` ${pendingCount === 1 ? 'Your message' : `${pendingCount} messages`} will be sent as soon as the connection is back.`
        : status === 'reconnecting' || !online
          ? ' You can keep typing: messages are sent once the connection is back.'
          : '';
    text = label + detail;
  }
  return (
    <div role="status" aria-live="polite" className="shrink-0">
      {text && (
        <p className="flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
          {online ? (
            <Spinner size="sm" label={null} className="text-amber-700" />
          ) : (
            <InfoIcon size={16} className="shrink-0 text-amber-700" />
          )}
          <span>{text}</span>
        </p>
      )}
    </div>
  );
}
