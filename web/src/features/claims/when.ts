/** "Sat, Nov 28, 6:10 PM" in the reader's time zone. */
export function whenText(epochMs: number): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(epochMs);
}
