/**
 * Chat's queries, one file per responsibility: rooms (the one room upsert), messages (the SEND hot
 * path and posted cards), read markers, the inbox, and the checks a SEND or a signal needs. Chat is
 * the only module that writes `chat_rooms`, `chat_messages` and `chat_reads`; other modules post
 * through `ChatPosts` (posts.ts), exported from index.ts.
 */
export * from './checks-store.js';
export * from './inbox-store.js';
export * from './messages-store.js';
export * from './reads-store.js';
export * from './rooms-store.js';
