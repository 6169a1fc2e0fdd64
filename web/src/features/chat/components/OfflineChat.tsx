import { DEALS_MESSAGES, MESSAGES } from '@campus/contract';
import { EmptyState } from '../../../ui/EmptyState';
import { InfoIcon } from '../../../ui/icons';
import { savedHandoffCodes } from '../../deals/handoffStore';
import { HandoffCodeDisplay } from '../../deals/HandoffDialogs';

/** The hand-off codes this device saved for a chat (the meet-up is where signal is worst). */
export function SavedHandoffCodes({ userId, roomId }: { userId: number | null; roomId: string | null }) {
  const codes = userId !== null && roomId ? savedHandoffCodes(userId, roomId) : [];
  if (codes.length === 0) return null;
  return (
    <div className="mx-auto w-full max-w-sm space-y-4">
      {codes.map((saved) => {
        const title = DEALS_MESSAGES.handoffSavedTitle(saved.listingName ?? 'this listing');
        return (
          <section key={saved.listingId} aria-label={title} className="space-y-2">
            <h2 className="text-center text-sm font-semibold text-slate-900">{title}</h2>
            <HandoffCodeDisplay code={saved.code} />
            <p className="text-center text-sm text-slate-600">{DEALS_MESSAGES.handoffCodeHint}</p>
          </section>
        );
      })}
    </div>
  );
}

/**
 * A conversation that cannot load without a network: says so (no spinner that never ends), and
 * shows what this device keeps for the chat — the buyer's hand-off code. It loads by itself when
 * the network is back (its requests wait for it).
 */
export function OfflineChat({ userId, roomId }: { userId: number | null; roomId: string | null }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-6 overflow-y-auto p-4">
      <div role="status" className="w-full max-w-sm">
        <EmptyState icon={<InfoIcon />} title={MESSAGES.offlineTitle} description={MESSAGES.chatOffline} />
      </div>
      <SavedHandoffCodes userId={userId} roomId={roomId} />
    </div>
  );
}
