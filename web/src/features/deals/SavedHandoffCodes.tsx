import { DEALS_MESSAGES } from '@campus/contract';
import { savedHandoffCodes } from './handoffStore';
import { HandoffCodeDisplay } from './HandoffDialogs';

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
