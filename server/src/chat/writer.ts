import type { Kysely } from 'kysely';
import { acrossCampuses, inCampus } from '../db/campus-scope.js';
import type { Dialect } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { insertMessages, type MessageRow, type NewMessage } from './messages-store.js';

interface Pending {
  message: NewMessage;
  resolve(row: MessageRow): void;
  reject(err: unknown): void;
}

/**
 * Group commit for chat messages: every message that arrives while a commit is running goes into
 * the next one. Under load one commit carries many messages (the cost of a commit is paid once);
 * when idle a message is written on its own at once. Order is kept. If a batch fails, its messages
 * are retried one by one so that one bad message fails alone.
 *
 * SQLite commits synchronously, inside the turn of the event loop that asked for it, so nothing can
 * arrive "while a commit is running" and every batch would hold one message. There the first write
 * waits for `setImmediate` — the end of the current I/O phase, when every socket read in it has been
 * handled — and the messages those reads carried share one commit. An idle message waits for no timer.
 *
 * The queue is shared by every session of the process, so a batch may hold several campuses'
 * messages (features.md §E). Every row names its own campus (each SEND was checked in its sender's
 * campus before it was queued), and a batch of one campus is written as that campus's work; a mixed
 * batch is written across campuses, so 100 campuses chatting at once still share one commit instead
 * of paying one each. Whichever SEND started the drain never lends its campus to the others' rows.
 */
export class MessageWriter {
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly maxBatch = 200,
  ) {}

  write(message: NewMessage): Promise<MessageRow> {
    return new Promise((resolve, reject) => {
      this.queue.push({ message, resolve, reject });
      if (this.running) return;
      this.running = true;
      if (this.dialect === 'sqlite') setImmediate(() => void this.drain());
      else void this.drain();
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        const insert = (messages: NewMessage[]) => {
          const campusId = messages[0]!.campusId;
          const write = () => insertMessages(this.db, this.dialect, messages);
          return messages.every((m) => m.campusId === campusId)
            ? inCampus(campusId, write)
            : acrossCampuses(write);
        };
        try {
          const rows = await insert(batch.map((p) => p.message));
          batch.forEach((p, i) => p.resolve(rows[i]!));
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          for (const p of batch) {
            try {
              const [row] = await insert([p.message]);
              p.resolve(row!);
            } catch (e) {
              p.reject(e);
            }
          }
        }
      }
    } finally {
      this.running = false;
    }
  }
}
