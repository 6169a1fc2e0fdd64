/**
 * The little of oidc-provider (no types of its own) the test identity provider uses
 * (server/test/oidc-provider.ts).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Configuration {
    clients?: Record<string, unknown>[];
    findAccount?: (
      ctx: unknown,
      sub: string,
    ) => Promise<{ accountId: string; claims: () => Promise<Record<string, unknown>> } | undefined>;
    claims?: Record<string, string[]>;
    jwks?: { keys: unknown[] };
    cookies?: { keys: string[] };
    features?: Record<string, unknown>;
    pkce?: { required?: () => boolean };
    [key: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
