import { useCallback, useEffect, useState } from 'react';

/** A countdown in whole seconds: `start()` begins it; `remaining` is 0 when it is over. */
export function useCooldown(seconds: number): { remaining: number; start: () => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [until, now]);
  const start = useCallback(() => {
    const t = Date.now();
    setNow(t);
    setUntil(t + seconds * 1000);
  }, [seconds]);
  return { remaining: Math.max(0, Math.ceil((until - now) / 1000)), start };
}
