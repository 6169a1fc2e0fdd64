import type { ChatMessage } from '@campus/contract';
import { formatFullTime, formatMessageTime } from '../chat/model';
import { useTimeBasis } from '../../ui/timeBasis';

/** A deal event ("Maya accepted the offer of $40...") as a centred, quiet line in the thread. */
export function SystemLine({ message }: { message: ChatMessage }) {
  const basis = useTimeBasis();
  return (
    <li className="flex justify-center px-2">
      <p className="max-w-md rounded-xl bg-slate-200/70 px-3 py-1 text-center text-xs leading-relaxed text-slate-700">
        {message.content}
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
