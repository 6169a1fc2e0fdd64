import { useEffect } from 'react';

let base = 'Campus Market';
let unread = 0;

function apply(): void {
  const prefix = unread > 0 ? `(${unread > 99 ? '99+' : unread}) ` : '';
  document.title = prefix + base;
}

/** Sets the document title ("{title} · Campus Market"), after the unread count if any. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    base = title ? `${title} · Campus Market` : 'Campus Market';
    apply();
  }, [title]);
}

/** Puts the unread chat count in front of the title ("(3) Dashboard · Campus Market"). */
export function useUnreadTitle(count: number): void {
  useEffect(() => {
    unread = count;
    apply();
    return () => {
      unread = 0;
      apply();
    };
  }, [count]);
}
