import { NavLink } from 'react-router';
import { NOTIFICATION_CENTRE_PATH } from '@campus/contract/pages';
import { CountBadge } from './CountBadge';
import { cx } from './cx';
import { BellIcon } from './icons';
import { useNotificationCount } from './notificationCount';

/** The bell of the top bar: opens the notification centre; the badge is the live unread count. */
export function NotificationBell({ className }: { className?: string }) {
  const count = useNotificationCount();
  const label = count > 0 ? `Notifications, ${count} unread` : 'Notifications';
  return (
    <NavLink
      to={NOTIFICATION_CENTRE_PATH}
      aria-label={label}
      title="Notifications"
      className={({ isActive }) =>
        cx(
          'relative inline-flex h-10 w-10 items-center justify-center rounded-xl transition-colors',
          isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
          className,
        )
      }
    >
      <BellIcon size={20} />
      <CountBadge count={count} testId="bell-count" className="-top-0.5 -right-0.5" />
    </NavLink>
  );
}
