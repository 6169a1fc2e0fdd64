import { useEffect, useRef } from 'react';
import { Button } from '../../../ui/Button';

export interface LoadMoreProps {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  onLoadMore: () => void;
  /** Load by scrolling (off after a failed page, so it does not retry in a loop). */
  auto?: boolean;
  /** Shown under the last page when there is nothing more (omit for none). */
  endText?: string;
}

/**
 * "Load more" for the paged lists: the next page also loads by itself when the button comes near
 * the viewport (infinite scroll), and the button stays for keyboard and screen-reader users.
 */
export function LoadMore({
  hasNextPage,
  isFetchingNextPage,
  onLoadMore,
  auto = true,
  endText,
}: LoadMoreProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const load = useRef(onLoadMore);
  useEffect(() => {
    load.current = onLoadMore;
  });

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || !auto || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) load.current();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, auto]);

  if (!hasNextPage) {
    return endText ? <p className="mt-8 text-center text-sm text-slate-500">{endText}</p> : null;
  }
  return (
    <div ref={sentinel} className="mt-8 flex justify-center">
      <Button variant="secondary" onClick={onLoadMore} loading={isFetchingNextPage}>
        {isFetchingNextPage ? 'Loading more…' : 'Load more'}
      </Button>
    </div>
  );
}
