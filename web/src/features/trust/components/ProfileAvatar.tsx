import { apiUrl } from '../../../api/client';
import { cx } from '../../../ui/cx';

/** The student's photo when they set one, otherwise their initials (decorative: the name is beside it). */
export function ProfileAvatar({
  id,
  firstName,
  lastName,
  avatarUrl,
  size = 'lg',
}: {
  id: number;
  firstName: string;
  lastName: string;
  avatarUrl: string | null;
  size?: 'md' | 'lg';
}) {
  const box = size === 'lg' ? 'h-24 w-24 text-3xl' : 'h-11 w-11 text-base';
  if (avatarUrl) {
    return (
      <img
        src={apiUrl(avatarUrl)}
        alt=""
        className={cx('shrink-0 rounded-full object-cover ring-2 ring-white shadow-card', box)}
      />
    );
  }
  const initials = `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?';
  return (
    <span
      aria-hidden="true"
      data-user={id}
      className={cx(
        'inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800',
        box,
      )}
    >
      {initials}
    </span>
  );
}
