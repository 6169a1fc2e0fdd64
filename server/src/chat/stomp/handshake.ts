import type { StompVersion } from './frame.js';

/** The versions this server speaks, most preferred first. */
export const VERSIONS: readonly StompVersion[] = ['1.2', '1.1', '1.0'];

/** Reads `Authorization: Bearer <jwt>` (either case of the header name) from CONNECT headers. */
export function bearerToken(headers: Record<string, string>): string | null {
  const value = headers['Authorization'] ?? headers['authorization'];
  if (value === undefined) return null;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(value);
  return m ? (m[1] ?? null) : null;
}

/** Parses a heart-beat header "cx,cy"; null when malformed. */
export function parseHeartBeat(value: string | undefined): [number, number] | null {
  if (value === undefined) return [0, 0];
  const m = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(value);
  if (!m) return null;
  return [Number(m[1]), Number(m[2])];
}

/**
 * Spec "Heart-beating": the client sends every max(cx, sy) when both are non-zero, the server
 * every max(sx, cy) when both are non-zero.
 */
export function negotiateHeartBeat(
  client: [number, number],
  server: { outgoing: number; incoming: number },
): { send: number; expect: number } {
  const [cx, cy] = client;
  return {
    send: server.outgoing > 0 && cy > 0 ? Math.max(server.outgoing, cy) : 0,
    expect: cx > 0 && server.incoming > 0 ? Math.max(cx, server.incoming) : 0,
  };
}

/** The versions on offer under the WebSocket sub-protocol's cap (null: no cap). */
export function supportedVersions(cap: StompVersion | null): readonly StompVersion[] {
  return cap === null ? VERSIONS : VERSIONS.filter((v) => v <= cap);
}

/** The highest version both sides speak, or null when there is none. */
export function pickVersion(
  acceptVersion: string | undefined,
  cap: StompVersion | null,
): StompVersion | null {
  // Spec: a client that does not send accept-version speaks 1.0.
  const offered = acceptVersion === undefined ? ['1.0'] : acceptVersion.split(',').map((v) => v.trim());
  return supportedVersions(cap).find((v) => offered.includes(v)) ?? null;
}
