import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { serverMessageOf } from '../../api/client';
import { blockUser, fetchBlocked, safetyKeys, unblockUser } from '../../api/safety';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { toast } from '../../ui/toast';

/** The students I blocked (for Block/Unblock buttons and the settings list). */
export function useBlocked() {
  return useQuery({ queryKey: safetyKeys.blocked, queryFn: fetchBlocked, staleTime: 30_000 });
}

export function useBlockActions() {
  const client = useQueryClient();
  const done = () => {
    void client.invalidateQueries({ queryKey: safetyKeys.blocked });
    // Their listings leave (or come back to) browse and search.
    void client.invalidateQueries({ queryKey: ['listings'] });
  };
  const block = useMutation({ mutationFn: blockUser, onSuccess: done });
  const unblock = useMutation({ mutationFn: unblockUser, onSuccess: done });
  return { block, unblock };
}

/** "Block" in the chat header (with a confirmation), "Unblock" once blocked. */
export function BlockButton({ userId, name }: { userId: number; name: string }) {
  const blocked = useBlocked();
  const { block, unblock } = useBlockActions();
  const [confirming, setConfirming] = useState(false);
  const isBlocked = blocked.data?.some((b) => b.id === userId) ?? false;

  if (isBlocked) {
    return (
      <Button
        variant="secondary"
        size="sm"
        loading={unblock.isPending}
        onClick={() =>
          unblock.mutate(userId, {
            onSuccess: () => toast.success(`${name} is unblocked`),
            onError: (e) => toast.error(serverMessageOf(e) ?? 'Could not unblock. Try again.'),
          })
        }
      >
        Unblock
      </Button>
    );
  }
  return (
    <>
      <Button variant="danger-outline" size="sm" onClick={() => setConfirming(true)}>
        Block
      </Button>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Block ${name}?`}
        description="Neither of you can send messages, offers or meet-ups, and you will no longer see their listings. This conversation stays readable. You can unblock in Safety & privacy."
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={block.isPending}
            onClick={() =>
              block.mutate(userId, {
                onSuccess: () => {
                  setConfirming(false);
                  toast.success(`${name} is blocked`);
                },
                onError: (e) => toast.error(serverMessageOf(e) ?? 'Could not block. Try again.'),
              })
            }
          >
            Block
          </Button>
        </div>
      </Dialog>
    </>
  );
}

/** A note above the composer when either side cannot message. */
export function BlockedNote({ userId, name }: { userId: number; name: string }) {
  const blocked = useBlocked();
  if (!blocked.data?.some((b) => b.id === userId)) return null;
  return (
    <p role="status" className="border-t border-slate-200 bg-slate-100 px-4 py-2.5 text-sm text-slate-700">
      You blocked {name}. You can&apos;t message each other; unblock to talk again.
    </p>
  );
}
