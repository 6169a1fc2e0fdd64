import { MESSAGES } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asStudent,
  createStudent,
  createTestApp,
  dialects,
  type Student,
  type TestApp,
} from '../../test/helper.js';
import { multipart, validFields } from '../listings/testing.js';
import { registeredRoutes } from './openapi.js';

/** The documentation itself, static files and the web app take no text input. */
const SKIP = [/^\/docs(\/|$)/, /^\/openapi\.json$/, /^\/uploads\/\*$/, /^\/\*$/, /^\/$/, /^\/dev\/outbox/];
const NUL = 'a\u0000b';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
}
interface Operation {
  parameters?: Array<{ in: 'path' | 'query'; name: string; schema?: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** A plausible value for a schema, and the paths of its string leaves (where a NUL can go). */
function sample(schema: JsonSchema | undefined, path: string[], leaves: string[][]): unknown {
  if (!schema) return undefined;
  const s = schema?.anyOf?.[0] ?? schema?.oneOf?.[0] ?? schema ?? {};
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (s.enum?.length) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (type === 'object' || s.properties) {
    return Object.fromEntries(
      Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v, [...path, k], leaves)]),
    );
  }
  if (type === 'array') return [sample(s.items, [...path, '0'], leaves)];
  if (type === 'integer' || type === 'number') return Math.max(1, s.minimum ?? 1);
  if (type === 'boolean') return true;
  if (type === 'string' && s.format === 'binary') return undefined;
  leaves.push(path);
  return s.format === 'email' ? 'someone@msu.edu' : 'text';
}

function withNul(value: unknown, path: string[]): unknown {
  if (path.length === 0) return NUL;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) return value.map((v, i) => (String(i) === head ? withNul(v, rest) : v));
  const obj = (value ?? {}) as Record<string, unknown>;
  return { ...obj, [head]: withNul(obj[head], rest) };
}

interface Probe {
  label: string;
  method: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/** One request per string input of every documented route, with a NUL in that input only. */
function probes(t: TestApp, spec: { paths: Record<string, Record<string, Operation>> }): Probe[] {
  const out: Probe[] = [];
  for (const route of registeredRoutes(t.app)) {
    if (SKIP.some((re) => re.test(route.url))) continue;
    const op = spec.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    if (!op) continue;
    const pathLeaves: string[][] = [];
    const params = Object.fromEntries(
      (op.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => [p.name, sample(p.schema, [p.name], pathLeaves)]),
    );
    const queryLeaves: string[][] = [];
    const query = Object.fromEntries(
      (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => [p.name, sample(p.schema, [p.name], queryLeaves)]),
    );
    const bodyLeaves: string[][] = [];
    const json = op.requestBody?.content['application/json']?.schema;
    const form = op.requestBody?.content['multipart/form-data']?.schema;
    const body = sample(json ?? form, [], bodyLeaves);
    const url = (p: Record<string, unknown>, q: Record<string, unknown>) => {
      const path = route.url.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(p[name])));
      const qs = new URLSearchParams(
        Object.entries(q).map(([k, v]): [string, string] => [
          k,
          typeof v === 'object' ? JSON.stringify(v) : String(v),
        ]),
      ).toString();
      return qs ? `${path}?${qs}` : path;
    };
    const send = (b: unknown) => {
      if (form) {
        const fields = Object.fromEntries(
          Object.entries({ ...validFields(), ...(b as Record<string, unknown>) })
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        );
        return multipart(fields);
      }
      return json ? { payload: b as object } : {};
    };
    const base = { method: route.method, label: `${route.method} ${route.url}` };
    for (const leaf of pathLeaves) {
      out.push({
        ...base,
        label: `${base.label} path ${leaf.join('.')}`,
        url: url(withNul(params, leaf) as Record<string, unknown>, query),
        ...send(body),
      });
    }
    for (const leaf of queryLeaves) {
      out.push({
        ...base,
        label: `${base.label} query ${leaf.join('.')}`,
        url: url(params, withNul(query, leaf) as Record<string, unknown>),
        ...send(body),
      });
    }
    for (const leaf of bodyLeaves) {
      out.push({
        ...base,
        label: `${base.label} body ${leaf.join('.')}`,
        url: url(params, query),
        ...send(withNul(body, leaf)),
      });
    }
  }
  return out;
}

describe.each(dialects)('a NUL character in any text input (%s)', (dialect) => {
  let t: TestApp;
  let student: Student;
  let spec: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    student = await createStudent(t);
    spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => t.close());

  it('answers 400 with a message on every route, for every string field, never 500', async () => {
    const all = probes(t, spec);
    // Sign-up, login, listings, chat, deals, safety, notifications… all take text.
    expect(all.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const probe of all) {
      const res = await asStudent(t, student, {
        method: probe.method as 'GET',
        url: probe.url,
        ...(probe.payload !== undefined ? { payload: probe.payload as string } : {}),
        ...(probe.headers ? { headers: probe.headers } : {}),
      });
      const body = String(res.headers['content-type']).includes('json')
        ? (res.json() as { message?: string })
        : {};
      if (res.statusCode !== 400 || body.message !== MESSAGES.textHasNul) {
        wrong.push(`${probe.label}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('anonymous sign-up with a NUL in the name is refused with the same 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/sign-up',
      payload: {
        firstName: NUL,
        lastName: 'Spartan',
        email: 'nul-name@msu.edu',
        password: 'green-and-white-42',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MESSAGES.textHasNul, code: 'VALIDATION' });
  });
});
