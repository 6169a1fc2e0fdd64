import { useEffect } from 'react';
import { useLiveUnreadTotal } from './useChatRooms';

/** The live chat link (STOMP client, chat store, outbox): its own chunk, see LiveUnreadProvider. */
export default function LiveUnreadLink({ onTotal }: { onTotal: (total: number) => void }) {
  const total = useLiveUnreadTotal();
  useEffect(() => onTotal(total), [onTotal, total]);
  return null;
}
