import type { ChatMessage } from '@campus/contract';
import { formatFullTime, formatMessageTime } from '../chat/model';
import { useTimeBasis } from '../../ui/timeBasis';
import { systemText } from './systemWords';

/**
 * A deal event as a centred, quiet line in the thread, told to the reader ("You accepted Omar's
 * offer of $40" / "Maya accepted your offer of $40": systemWords.ts).
 */
export function SystemLine({
  message,
  myId,
  peerName,
}: {
  message: ChatMessage;
  myId: number | null;
  peerName: string;
}) {
  const basis = useTimeBasis();
  return (
    <li className="flex justify-center px-2">
      <p className="max-w-md rounded-xl bg-slate-200/70 px-3 py-1 text-center text-xs leading-relaxed text-slate-700">
        {systemText(message, myId, peerName)}
        <span className="sr-only">, </span>
        {/* The time never breaks in two when the sentence wraps. */}
        <time
          dateTime={message.sentAt}
          title={formatFullTime(message.sentAt, basis)}
          className="ml-1.5 whitespace-nowrap text-slate-600"
        >
          {formatMessageTime(message.sentAt, basis)}
        </time>
      </p>
    </li>
  );
}
