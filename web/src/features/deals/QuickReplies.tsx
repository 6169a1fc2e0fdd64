import { useState } from 'react';
import { quickReplies } from './nextStep';

/**
 * A buyer's first words in a new chat, one tap each: "Is it still available?", "Can you do $X?"
 * (about 10% under the asking price), "When can we meet?". Tapping sends the message; the row
 * goes once the buyer has said anything.
 */
export function QuickReplies({ price, onSend }: { price: number; onSend: (text: string) => void }) {
  const [sent, setSent] = useState(false);
  if (sent) return null;
  return (
    <section
      aria-label="Quick replies"
      className="shrink-0 border-t border-slate-200 bg-white px-3 py-2 sm:px-5"
    >
      <ul className="flex gap-2 overflow-x-auto pb-0.5 [scrollbar-width:none]">
        {quickReplies(price).map((text) => (
          <li key={text} className="shrink-0">
            <button
              type="button"
              onClick={() => {
                setSent(true);
                onSend(text);
              }}
              className="min-h-9 rounded-full border border-brand-300 bg-brand-50 px-3 py-1.5 text-sm font-medium whitespace-nowrap text-brand-900 hover:bg-brand-100"
            >
              {text}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
