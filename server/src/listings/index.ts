import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** Listings module entry: registers its routes on the app (filled by the listings module). */
export async function registerListings(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
