import { z } from './zod.js';
import { DB_INT_MAX } from './ids.js';

/**
 * A database id as it arrives in a path, query or body: a whole number 1..DB_INT_MAX. Apart from
 * ids.ts, which pages read on their first render: a module importing Zod brings it into their chunk.
 */
export const dbIdSchema = (message: string) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(DB_INT_MAX, message);
