/**
 * The red count on an icon (the bell, the Chats tab): hidden from screen readers, because the
 * control's own name says the count in words. `className` places it on its icon.
 */
export function CountBadge({
  count,
  testId,
  className,
}: {
  count: number;
  testId: string;
  className: string;
}) {
  if (count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      data-testid={testId}
      className={`absolute inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] leading-5 font-bold text-white ring-2 ring-white ${className}`}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
