/** Test helpers for the safety module (used by its *.test.ts files only). */
import { STOMP_PATHS, type ChatErrorBody } from '@campus/contract';
import type { Client } from '@stomp/stompjs';
import { asStudent, type Student, type TestApp } from '../../test/helper.js';
import { collect, connectOrThrow, receiptFor } from '../chat/stomp/testing.js';

export const bearer = (s: Pick<Student, 'token'>) => ({ Authorization: `Bearer ${s.token}` });

export const MOD_EMAIL = 'moderator@msu.edu';

export function call(
  t: TestApp,
  s: Student | null,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const options = {
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  };
  return s ? asStudent(t, s, options) : t.app.inject(options);
}

/**
 * One SEND over a fresh STOMP session; resolves with the refusal on /user/queue/errors, or with
 * 'RECEIPT' when the server stored it. The session stays open either way.
 */
export async function sendOnce(
  url: string,
  student: Student,
  destination: string,
  body: Record<string, unknown>,
  opened: Client[],
): Promise<ChatErrorBody | 'RECEIPT'> {
  const client = await connectOrThrow(url, bearer(student));
  opened.push(client);
  const errors = collect(client, STOMP_PATHS.errors, { receipt: 'sub-errors' });
  await receiptFor(client, 'sub-errors');
  const stored = receiptFor(client, 'r-send', 5_000).then(() => 'RECEIPT' as const);
  client.publish({ destination, body: JSON.stringify(body), headers: { receipt: 'r-send' } });
  const refused = errors.next(5_000).then((m) => JSON.parse(m.body) as ChatErrorBody);
  const outcome = await Promise.race([stored, refused]);
  // Refused or not, the session is still connected.
  if (!client.connected) throw new Error('the session closed after the SEND');
  await client.deactivate();
  return outcome;
}
