import { useEffect } from 'react';

/** Sets the document title ("{title} · Campus Market"). */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Campus Market` : 'Campus Market';
  }, [title]);
}
