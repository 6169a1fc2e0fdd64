import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.js';
import { registeredRoutes } from './openapi.js';

/**
 * Routes deliberately left out of the OpenAPI document: the documentation itself, static files and
 * the built web app. Anything else must be documented with `doc({...})` (see http/openapi.ts).
 */
const HIDDEN = [/^\/docs(\/|$)/, /^\/openapi\.json$/, /^\/uploads\/\*$/, /^\/\*$/, /^\/$/];

interface OpenApiDoc {
  openapi: string;
  paths: Record<
    string,
    Record<string, { summary?: string; responses: Record<string, unknown>; security?: unknown[] }>
  >;
}

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI', () => {
  let t: TestApp;
  let spec: OpenApiDoc;
  beforeAll(async () => {
    // No SMTP_URL: the development outbox routes are registered too.
    t = await createTestApp({ env: { SMTP_URL: '' } });
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    spec = res.json();
  });
  afterAll(() => t.close());

  it('documents every registered route, with its errors', () => {
    const routes = registeredRoutes(t.app);
    expect(routes.length).toBeGreaterThan(20);
    const undocumented = routes
      .filter((r) => !HIDDEN.some((re) => re.test(r.url)))
      .filter((r) => {
        const op = spec.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
        return !r.documented || !op?.summary;
      })
      .map((r) => `${r.method} ${r.url}`);
    expect(undocumented, 'document these routes with doc({...}) from server/src/http/openapi.ts').toEqual([]);
    // Hidden routes are only the ones listed above.
    const hidden = routes.filter((r) => r.hidden && !HIDDEN.some((re) => re.test(r.url)));
    expect(hidden.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('is OpenAPI 3.1 with bearer auth, 401 on guarded routes and error bodies', () => {
    expect(spec.openapi).toBe('3.1.0');
    const info = spec.paths['/users/{id}']?.get;
    expect(info?.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(info?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    const signUp = spec.paths['/public/sign-up']?.post as unknown as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
      responses: Record<string, unknown>;
    };
    // The body schema is the one the route parses with (contract signUpSchema).
    expect(Object.keys(signUp.requestBody.content['application/json'].schema.properties).sort()).toEqual([
      'email',
      'firstName',
      'lastName',
      'password',
    ]);
    expect(Object.keys(signUp.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '429']));
  });

  it('serves Swagger UI at /docs under the app CSP (no inline script, same-origin files)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, inline] of scripts) {
      expect(attrs).toMatch(/src="\.\/static\//);
      expect(inline?.trim()).toBe('');
    }
    const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('validatorUrl: null');
  });
});
