import { useCallback, useState } from 'react';
import { chatKeys } from '../../api/chat';
import { serverMessageOf } from '../../api/client';
import { queryClient } from '../../api/queryClient';

/** What a failed deal call says when the server sent no message of its own (network, 5xx). */
export const DEAL_ACTION_FAILED = 'That did not go through. Check your connection and try again.';

/**
 * Runs one deal call (accept, counter, propose...) with a busy flag and the server's message on
 * failure (a 4xx a student can act on: "This offer was already answered..."). On success the
 * room's history catches up at once, so the card changes even if the live connection is slow.
 */
export function useDealAction(roomId: string) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = useCallback(
    async <T>(name: string, call: () => Promise<T>): Promise<T | undefined> => {
      setBusy(name);
      setError(null);
      try {
        const result = await call();
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(roomId) });
        return result;
      } catch (err) {
        setError(serverMessageOf(err) ?? DEAL_ACTION_FAILED);
        return undefined;
      } finally {
        setBusy(null);
      }
    },
    [roomId],
  );

  return { busy, error, setError, run };
}
