/** Test helpers for the deals module. */
import type { ChatMessage, Offer } from '@campus/contract';
import { asStudent, createStudent, type Student, type TestApp } from '../../test/helper.js';
import { createListing } from '../chat/testing.js';

export interface Cast {
  seller: Student;
  buyer: Student;
  third: Student;
  listingId: number;
}

/**
 * A seller with a $15 listing, a buyer and a third student who has nothing to do with it, all of
 * the campus of `domain` (default msu.edu, the default campus).
 */
export async function cast(t: TestApp, domain?: string): Promise<Cast> {
  const seller = await createStudent(t, { firstName: 'Maya', domain });
  const buyer = await createStudent(t, { firstName: 'Ben', domain });
  const third = await createStudent(t, { firstName: 'Tess', domain });
  return { seller, buyer, third, listingId: await createListing(t, seller.id) };
}

export function call(
  t: TestApp,
  who: Student | null,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
) {
  const options = { method, url, ...(payload === undefined ? {} : { payload: payload as object }) };
  return who ? asStudent(t, who, options) : t.app.inject(options);
}

export async function offer(
  t: TestApp,
  who: Student,
  listingId: number,
  amount: number | string,
): Promise<Offer> {
  const res = await call(t, who, 'POST', `/listings/${listingId}/offers`, { amount });
  if (res.statusCode !== 201) throw new Error(`offer failed: ${res.statusCode} ${res.body}`);
  return res.json() as Offer;
}

export async function history(t: TestApp, who: Student, roomId: string): Promise<ChatMessage[]> {
  const res = await call(t, who, 'GET', `/api/chats/${roomId}`);
  if (res.statusCode !== 200) throw new Error(`history failed: ${res.statusCode} ${res.body}`);
  return res.json() as ChatMessage[];
}

export async function listingOf(t: TestApp, who: Student, id: number) {
  const res = await call(t, who, 'GET', `/listing/${id}`);
  if (res.statusCode !== 200) throw new Error(`listing failed: ${res.statusCode} ${res.body}`);
  return res.json() as { status: string; isSold: boolean; reservedFor?: { id: number; firstName: string } };
}
