import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** Chat module entry: registers HTTP routes and the STOMP endpoint (filled by the chat module). */
export async function registerChat(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
