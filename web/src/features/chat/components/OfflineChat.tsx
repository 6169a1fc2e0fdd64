import { MESSAGES } from '@campus/contract';
import { EmptyState } from '../../../ui/EmptyState';
import { InfoIcon } from '../../../ui/icons';
import { OfflineRoomParts, type RoomKind } from '../roomKinds';

/**
 * A conversation that cannot load without a network: says so (no spinner that never ends), and
 * shows what this device keeps for the chat (the room kinds': the buyer's hand-off code). It loads
 * by itself when the network is back (its requests wait for it).
 */
export function OfflineChat({
  kinds,
  userId,
  roomId,
}: {
  kinds: readonly RoomKind[];
  userId: number | null;
  roomId: string | null;
}) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-6 overflow-y-auto p-4">
      <div role="status" className="w-full max-w-sm">
        <EmptyState icon={<InfoIcon />} title={MESSAGES.offlineTitle} description={MESSAGES.chatOffline} />
      </div>
      <OfflineRoomParts kinds={kinds} userId={userId} roomId={roomId} />
    </div>
  );
}
