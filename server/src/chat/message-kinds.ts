import type { ChatMessage } from '@campus/contract';
import type { MessageRow } from './messages-store.js';

/** The cards a chat message can embed, named by the `ChatMessage` field that carries each. */
export type CardField = 'offer' | 'meetup';

/** A message's cards as they are when it is posted (the live copy carries them). */
export type MessageCards = Pick<ChatMessage, CardField>;

/**
 * The `chat_messages` column that points at each kind of card: a message stores the reference,
 * and history shows the card as it is now.
 */
export const CARD_COLUMNS = { offer: 'offer_id', meetup: 'meetup_id' } as const satisfies Record<
  CardField,
  keyof MessageRow
>;

/** A message's references to its cards: what `attachCards` reads of a message's row. */
export type CardRefs = Pick<MessageRow, (typeof CARD_COLUMNS)[CardField]>;

/** A kind of card another module owns (deals: offers, meet-ups), with how to read its current state. */
export interface CardKind<F extends CardField = CardField> {
  field: F;
  /** The cards with these ids as they are now: one read for a whole page of history. */
  load(ids: readonly number[]): Promise<ReadonlyMap<number, NonNullable<ChatMessage[F]>>>;
}

export type AnyCardKind = { [F in CardField]: CardKind<F> }[CardField];

/**
 * The registry of message kinds that embed a card. Built once at wiring time (app.ts) from what the
 * owning modules contribute and given to chat at construction, so chat shows an offer or a
 * meet-up without knowing the module that owns it.
 */
export class MessageKinds {
  constructor(private readonly kinds: readonly AnyCardKind[] = []) {}

  /**
   * A page of history with each message's cards in their current state: one read per kind of
   * card the page refers to, whatever the page size. `rows` are the messages' rows, in order.
   */
  async attachCards(messages: ChatMessage[], rows: readonly CardRefs[]): Promise<ChatMessage[]> {
    const loaded = new Map<CardField, ReadonlyMap<number, unknown>>();
    for (const kind of this.kinds) {
      const column = CARD_COLUMNS[kind.field];
      const ids = [...new Set(rows.map((r) => r[column]).filter((id): id is number => id !== null))];
      if (ids.length > 0) loaded.set(kind.field, await kind.load(ids));
    }
    if (loaded.size === 0) return messages;
    return messages.map((message, i) => {
      const row = rows[i];
      let out = message;
      for (const { field } of this.kinds) {
        const id = row?.[CARD_COLUMNS[field]];
        const card = id !== null && id !== undefined ? loaded.get(field)?.get(id) : undefined;
        if (card !== undefined) out = { ...out, [field]: card };
      }
      return out;
    });
  }
}
