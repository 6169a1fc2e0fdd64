/** Test helpers for the claims module. */
import type { Claim, Listing } from '@campus/contract';
import { asStudent, createStudent, type Student, type TestApp } from '../../test/helper.js';
import { postListing, validFields } from '../listings/testing.js';

export const HOUR = 3_600_000;

export interface Giveaway {
  giver: Student;
  claimants: Student[];
  stranger: Student;
  listing: Listing;
}

/** A giver with a free item (window `hours`), `n` claimants who have not claimed yet, and a stranger. */
export async function giveaway(t: TestApp, n = 3, hours = 12, domain?: string): Promise<Giveaway> {
  const giver = await createStudent(t, { firstName: 'Gina', domain });
  const claimants: Student[] = [];
  for (let i = 0; i < n; i++) claimants.push(await createStudent(t, { firstName: `Cam${i}`, domain }));
  const stranger = await createStudent(t, { firstName: 'Sam', domain });
  const listing = await freeListing(t, giver, hours);
  return { giver, claimants, stranger, listing };
}

export function freeListing(t: TestApp, giver: Student, hours = 12, name = 'Desk lamp'): Promise<Listing> {
  return postListing(
    t,
    giver,
    validFields({ name, price: '', free: 'true', claimWindowHours: String(hours), category: 'LIFESTYLE' }),
  );
}

export function call(
  t: TestApp,
  who: Student | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const options = { method, url, ...(payload === undefined ? {} : { payload: payload as object }) };
  return who ? asStudent(t, who, options) : t.app.inject(options);
}

export async function claim(
  t: TestApp,
  who: Student,
  listingId: number,
  note = 'I would love it',
): Promise<Claim> {
  const res = await call(t, who, 'POST', `/listings/${listingId}/claims`, { note });
  if (res.statusCode !== 201) throw new Error(`claim failed: ${res.statusCode} ${res.body}`);
  return res.json() as Claim;
}

/** Every claim of the listing as its giver sees them, by id. */
export async function claimsOf(t: TestApp, giver: Student, listingId: number): Promise<Map<number, Claim>> {
  const res = await call(t, giver, 'GET', `/listings/${listingId}/claims?limit=50`);
  if (res.statusCode !== 200) throw new Error(`claims failed: ${res.statusCode} ${res.body}`);
  return new Map((res.json() as Claim[]).map((c) => [c.id, c]));
}

/** A random source that answers from a list, then 0 (deterministic draws). */
export function scripted(values: number[]) {
  const queue = [...values];
  const source = (max: number) => {
    const v = queue.shift() ?? 0;
    return v % max;
  };
  return { source, push: (...more: number[]) => queue.push(...more) };
}

/** A fresh token for the student (tests that move the clock past a token's lifetime). */
export async function relogin(t: TestApp, student: Student): Promise<Student> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/login',
    payload: { email: student.email, password: student.password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return { ...student, token: res.body };
}
