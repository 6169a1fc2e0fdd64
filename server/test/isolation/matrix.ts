import type { HTTPMethods } from 'fastify';
import { expect } from 'vitest';
import type { Student } from '../helper.js';
import type { Answer } from '../socket-client.js';
import { call, type World } from './world.js';

/**
 * The isolation matrix's case table (features.md §E): one entry per route of the app, keyed
 * `METHOD path` exactly as Fastify registered it. isolation-matrix.test.ts fails for a route
 * without an entry, so a new route cannot skip the question "what does another campus see here?".
 */
export type IsolationCase = ByIdCase | ListCase | OwnCase | ReasonCase;
export type CaseTable = Readonly<Record<string, IsolationCase>>;

/** Ids (or other values) a request is built from; equal values in answers are compared by name. */
export type Ids = Readonly<Record<string, number | string>>;

export interface Call {
  method: HTTPMethods;
  url: string;
  payload?: object | Buffer | string;
  headers?: Record<string, string>;
}

type Who = (w: World) => Student;

/**
 * A route that names an msu thing by id (path, query or body). The same-campus party gets
 * `success`; the other-campus caller naming the msu thing gets exactly what naming a thing that
 * does not exist gets (status and body, ids aside).
 */
export interface ByIdCase {
  kind: 'byId';
  scenarios: readonly ByIdScenario[];
}

export interface ByIdScenario {
  /** What is named (test output). */
  name: string;
  party: Who;
  /** Default: the uw student. */
  outsider?: Who;
  /** The msu thing's ids: the world's, or new ones when the call changes or uses up the thing. */
  ids: (w: World) => Ids | Promise<Ids>;
  /** Ids nothing has (same names). */
  unknown: Ids;
  request: (ids: Ids, w: World) => Call;
  success: number;
}

/** A list or search: the party sees msu rows (unless `partySees` is false), the outsider never. */
export interface ListCase {
  kind: 'list';
  party: Who;
  outsider?: Who;
  request: (w: World) => Call;
  /** Default true: the party's answer holds an msu row, so an empty answer cannot pass for isolation. */
  partySees?: boolean;
  /** The outsider's answer holds a uw row (the list works for the other campus too). */
  outsiderSees?: boolean;
}

/**
 * A route about the caller's own account or rows that names no other thing: both campuses'
 * callers succeed, and neither answer shows the other campus's rows.
 */
export interface OwnCase {
  kind: 'own';
  /** Default: the msu owner and the uw student; new students when the call changes the account. */
  callers?: (w: World) => Promise<{ party: Student; outsider: Student }>;
  request: (w: World, who: Student) => Call | Promise<Call>;
  success: number;
}

/** A route with nothing of a campus to isolate, and why; `optional`: registered only in some set-ups. */
export interface ReasonCase {
  kind: 'reason';
  reason: string;
  optional?: boolean;
}

export const byId = (...scenarios: ByIdScenario[]): ByIdCase => ({ kind: 'byId', scenarios });
export const list = (c: Omit<ListCase, 'kind'>): ListCase => ({ kind: 'list', ...c });
export const own = (c: Omit<OwnCase, 'kind'>): OwnCase => ({ kind: 'own', ...c });
export const because = (reason: string, optional = false): ReasonCase => ({
  kind: 'reason',
  reason,
  optional,
});

/** Numbers no row has (below the databases' integer ceiling, so they are valid ids). */
export const NONE = 2_000_000_001;
export const NONE2 = 2_000_000_002;
export const NO_ROOM = `${NONE}:${NONE2}`;

const uwStudent: Who = (w) => w.uw.student;

/** What an answer says, with the given ids' values replaced by their names. */
export function normalise(answer: Pick<Answer, 'statusCode' | 'body'>, ids: Ids) {
  const names = new Map(Object.entries(ids).map(([name, value]) => [String(value), `<${name}>`]));
  const swap = (value: unknown): unknown => {
    if ((typeof value === 'number' || typeof value === 'string') && names.has(String(value))) {
      return names.get(String(value));
    }
    if (Array.isArray(value)) return value.map(swap);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    }
    return value;
  };
  let body: unknown;
  try {
    body = swap(JSON.parse(answer.body));
  } catch {
    body = [...names].reduce(
      (text, [value, name]) =>
        text.replace(new RegExp(`\\b${value.replace(/[^\w]/g, '\\$&')}\\b`, 'g'), name),
      answer.body,
    );
  }
  return { status: answer.statusCode, body };
}

/** The call as the student: injected, and for a GET also twice over a socket (the fast lane). */
async function send(w: World, who: Student, c: Call): Promise<Answer[]> {
  const injected = await call(w.t, who, {
    method: c.method,
    url: c.url,
    ...(c.payload === undefined ? {} : { payload: c.payload }),
    ...(c.headers ? { headers: c.headers } : {}),
  });
  const answers: Answer[] = [
    {
      statusCode: injected.statusCode,
      headers: injected.headers,
      body: injected.body,
      json: () => injected.json(),
    },
  ];
  if (c.method === 'GET') {
    // The first read may fill the hot cache; the second is the one the lane answers from memory.
    for (let i = 0; i < 2; i += 1)
      answers.push(await w.socket.as(who, { method: 'GET', url: c.url, headers: c.headers }));
  }
  return answers;
}

const show = (a: Answer) => `${a.statusCode} ${a.body.slice(0, 300)}`;

export async function runById(w: World, key: string, s: ByIdScenario): Promise<void> {
  const ids = await s.ids(w);
  const party = s.party(w);
  const outsider = (s.outsider ?? uwStudent)(w);
  const read = s.request(ids, w).method === 'GET';
  const partyCall = async () => {
    for (const answer of await send(w, party, s.request(ids, w))) {
      expect(answer.statusCode, `${key} (${s.name}) as the same-campus party: ${show(answer)}`).toBe(
        s.success,
      );
    }
  };
  // A read by the party first (it may fill caches another campus must not be served from); a
  // write after the refusals (it may use the thing up).
  if (read) await partyCall();
  const [unknown] = await send(w, outsider, s.request(s.unknown, w));
  expect(
    unknown!.statusCode,
    `${key} (${s.name}) with unknown ids must not fail: ${show(unknown!)}`,
  ).toBeLessThan(500);
  const expected = normalise(unknown!, s.unknown);
  for (const answer of await send(w, outsider, s.request(ids, w))) {
    expect(
      normalise(answer, ids),
      `${key} (${s.name}): another campus's id must answer exactly like an unknown id (${show(unknown!)}), not ${show(answer)}`,
    ).toEqual(expected);
  }
  if (!read) await partyCall();
}

export async function runList(w: World, key: string, c: ListCase): Promise<void> {
  const request = c.request(w);
  for (const answer of await send(w, c.party(w), request)) {
    expect(answer.statusCode, `${key} as the same-campus party: ${show(answer)}`).toBe(200);
    if (c.partySees !== false) expect(answer.body, `${key}: the msu party sees msu rows`).toContain(w.marker);
    expect(answer.body, `${key}: an msu list shows a uw row`).not.toContain(w.uwMarker);
  }
  for (const answer of await send(w, (c.outsider ?? uwStudent)(w), request)) {
    expect(answer.statusCode, `${key} as the other campus: ${show(answer)}`).toBe(200);
    expect(answer.body, `${key}: a uw list shows an msu row`).not.toContain(w.marker);
    if (c.outsiderSees) expect(answer.body, `${key}: the uw caller sees uw rows`).toContain(w.uwMarker);
  }
}

export async function runOwn(w: World, key: string, c: OwnCase): Promise<void> {
  const { party, outsider } = c.callers ? await c.callers(w) : { party: w.msu.owner, outsider: w.uw.student };
  const sides: [Student, string, string][] = [
    [party, 'msu', w.uwMarker],
    [outsider, 'uw', w.marker],
  ];
  for (const [who, campus, other] of sides) {
    for (const answer of await send(w, who, await c.request(w, who))) {
      expect(answer.statusCode, `${key} as the ${campus} caller: ${show(answer)}`).toBe(c.success);
      expect(answer.body, `${key}: the ${campus} caller's answer shows the other campus`).not.toContain(
        other,
      );
    }
  }
}
