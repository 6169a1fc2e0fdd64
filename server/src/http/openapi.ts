import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ERROR_CODES } from '@campus/contract';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { z } from 'zod';

/**
 * OpenAPI 3.1 for every HTTP route, generated from the same Zod schemas the routes parse with.
 *
 * Document a route by spreading `doc({...})` into its options:
 *
 *   app.post('/public/verify', doc({
 *     tag: 'accounts', summary: 'Verify an address with its code',
 *     body: verifySchema, response: messageBody, errors: [400, 429],
 *   }), handler);
 *
 * `auth: true` adds the bearer requirement and the 401. openapi.test.ts fails for any registered
 * route without a `doc()` (or listed there as deliberately hidden).
 *
 * The schemas only describe: routes keep parsing with `parseOr400(theSameSchema, …)`, so the
 * validator and serializer compilers below are pass-through (no ajv, no fast-json-stringify) and
 * documenting a route never changes what it answers.
 */

type Schema = z.ZodType;

/** A response body: JSON (a Zod schema) or plain text (`{ text: 'example' }`). */
export type DocBody = Schema | { text: string };

export interface RouteDoc {
  tag: string;
  summary: string;
  description?: string;
  /** Needs `Authorization: Bearer <token>` (adds 401). */
  auth?: boolean;
  params?: Schema;
  query?: Schema;
  /** A JSON body. */
  body?: Schema;
  /** A multipart/form-data body: text fields (a Zod object) and file field names. */
  multipart?: { fields?: Schema; files: readonly string[] };
  /** The success answer; `status` defaults to 200. */
  response?: DocBody;
  status?: number;
  /** Answer headers a client reads (e.g. `link` for paging). */
  headers?: Record<string, string>;
  /** Every error status this route can answer besides 401 (added by auth) and 500. */
  errors: readonly ErrorStatus[];
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

const ERROR_TEXT: Record<ErrorStatus, string> = {
  400: `Invalid input (\`${ERROR_CODES.validation}\`): the message names what to fix.`,
  401: `Missing, expired or revoked token (\`${ERROR_CODES.unauthorized}\`).`,
  403: `Not allowed for this caller (\`${ERROR_CODES.forbidden}\`).`,
  404: `No such resource (\`${ERROR_CODES.notFound}\`).`,
  409: `Conflicts with the current state (\`${ERROR_CODES.conflict}\`).`,
  413: `Photo larger than 10 MB (\`${ERROR_CODES.tooLarge}\`).`,
  415: 'Unsupported content type.',
  429: `Too many attempts (\`${ERROR_CODES.rateLimited}\`); \`retry-after\` says when to try again.`,
  503: 'Not ready (database unreachable).',
};

/** The JSON Schema of a Zod schema as a request sees it (`io: 'input'`), without `$schema`. */
export function jsonSchema(schema: Schema): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  const { $schema: _drop, ...rest } = out as Record<string, unknown>;
  return rest;
}

const errorBody = {
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string', description: 'For the person using the app.' },
    code: { type: 'string', enum: Object.values(ERROR_CODES) },
  },
} as const;

function bodyContent(body: DocBody): Record<string, { schema: unknown; example?: string }> {
  if ('text' in body && typeof body.text === 'string') {
    return { 'text/plain': { schema: { type: 'string' }, example: body.text } };
  }
  return { 'application/json': { schema: jsonSchema(body as Schema) } };
}

/** Route options carrying the route's OpenAPI description (spread into the options object). */
export function doc(d: RouteDoc): { schema: FastifySchema } {
  const response: Record<string, unknown> = {
    [String(d.status ?? 200)]: {
      description: 'Success',
      ...(d.response ? { content: bodyContent(d.response) } : {}),
      ...(d.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(d.headers).map(([k, v]) => [k, { type: 'string', description: v }]),
            ),
          }
        : {}),
    },
  };
  const errors = new Set<ErrorStatus>(d.errors);
  if (d.auth) errors.add(401);
  for (const status of [...errors].sort()) {
    response[String(status)] = {
      description: ERROR_TEXT[status],
      content: { 'application/json': { schema: errorBody } },
    };
  }
  const schema: FastifySchema & Record<string, unknown> = {
    tags: [d.tag],
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    ...(d.auth ? { security: [{ bearer: [] }] } : {}),
    ...(d.params ? { params: jsonSchema(d.params) } : {}),
    ...(d.query ? { querystring: jsonSchema(d.query) } : {}),
    response,
  };
  if (d.body) schema.body = jsonSchema(d.body);
  if (d.multipart) {
    const fields = d.multipart.fields ? jsonSchema(d.multipart.fields) : { type: 'object', properties: {} };
    const properties = { ...(fields.properties as Record<string, unknown>) };
    for (const f of d.multipart.files) {
      properties[f] = { type: 'string', format: 'binary', description: 'A JPEG photo, at most 10 MB.' };
    }
    schema.body = { ...fields, properties, additionalProperties: true };
    schema.consumes = ['multipart/form-data'];
  }
  return { schema };
}

export interface RegisteredRoute {
  method: string;
  url: string;
  documented: boolean;
  hidden: boolean;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered after registerOpenApi (HEAD twins excluded), for openapi.test.ts. */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registered.get(app) ?? [];
}

/** Whether a registered route carries a `doc()` (the OpenAPI test lists the ones that do not). */
export function isDocumented(route: Pick<RouteOptions, 'schema'>): boolean {
  const schema = route.schema as { summary?: unknown; hide?: unknown } | undefined;
  return typeof schema?.summary === 'string' && schema.hide !== true;
}

/**
 * Registers the generator (before any route, so it sees them all), `/openapi.json` and the Swagger
 * UI at `/docs`. The UI's files are all served from this origin (no inline script), so the app's
 * CSP applies to `/docs` unchanged.
 */
export async function registerOpenApi(app: FastifyInstance, info: { title: string }): Promise<void> {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const hidden = (route.schema as { hide?: unknown } | undefined)?.hide === true;
      routes.push({ method, url: route.url, documented: isDocumented(route), hidden });
    }
  });

  // Routes parse with Zod themselves; the JSON Schemas in `schema` are documentation only.
  // (`true`: valid as it is — no result object allocated on every request.)
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${info.title} API`,
        version: '1',
        description:
          'Every error answers JSON `{message, code}`. Realtime chat is STOMP 1.2 over the `/ws` ' +
          'WebSocket: see docs/stomp.md.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, validatorUrl: null },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
