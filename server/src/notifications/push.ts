import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import {
  NOTIFICATION_LIMITS,
  NOTIFY_MESSAGES,
  pushSubscriptionBody,
  type PushPayload,
} from '@campus/contract';
import webpush from 'web-push';
import type { AppContext } from '../context.js';
import { HttpError, badRequest, parseOr400 } from '../http/errors.js';
import {
  PushTargetError,
  guardedLookup,
  literalAddress,
  addressAllowed,
  resolveAllowed,
  type TargetPolicy,
} from './push-target.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * VAPID keys from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or generated once into DATA_DIR and reused:
 * a new key pair would silently invalidate every browser subscription.
 */
export function loadVapidKeys(ctx: AppContext): VapidKeys {
  if (ctx.config.vapid) return ctx.config.vapid;
  const file = path.join(ctx.config.dataDir, 'vapid.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as VapidKeys;
  mkdirSync(ctx.config.dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

export interface StoredSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Parses the browser's PushSubscription JSON; only https: push services (http: when allowed). */
export function parseSubscription(ctx: AppContext, body: unknown): StoredSubscription {
  const sub = parseOr400(pushSubscriptionBody, body);
  let url: URL;
  try {
    url = new URL(sub.endpoint);
  } catch {
    throw badRequest(NOTIFY_MESSAGES.endpointInvalid);
  }
  const allowed =
    url.protocol === 'https:' || (ctx.config.pushAllowHttpEndpoints && url.protocol === 'http:');
  if (!allowed || url.username || url.password) throw badRequest(NOTIFY_MESSAGES.endpointInvalid);
  return { endpoint: url.toString(), p256dh: sub.keys.p256dh, auth: sub.keys.auth };
}

/** Loopback is a push target only where http: endpoints are (local testing, push-target.ts). */
export function targetPolicy(ctx: AppContext): TargetPolicy {
  return { allowLoopback: ctx.config.pushAllowHttpEndpoints };
}

/**
 * Refuses an endpoint whose host is, or resolves to, an internal address (400), or cannot be
 * looked up right now (503: the browser subscribes again on its next visit).
 */
export async function checkEndpointTarget(ctx: AppContext, endpoint: string): Promise<void> {
  try {
    await resolveAllowed(new URL(endpoint).hostname, targetPolicy(ctx));
  } catch (err) {
    if (!(err instanceof PushTargetError)) throw err;
    if (err.reason === 'internal') throw badRequest(NOTIFY_MESSAGES.endpointInternal);
    if (err.reason === 'unresolvable') throw badRequest(NOTIFY_MESSAGES.endpointUnresolvable);
    throw new HttpError(503, NOTIFY_MESSAGES.endpointCheckUnavailable);
  }
}

/** 'refused': the endpoint is (now) internal; the caller deletes it like an expired one. */
export type PushResult = 'sent' | 'gone' | 'failed' | 'refused';

/**
 * Keep-alive agents per policy whose lookup checks every address before connecting (the check at
 * subscribe time alone would let a host re-point its name at 127.0.0.1 afterwards).
 */
const agents = new Map<boolean, { http: http.Agent; https: https.Agent }>();
function agentsFor(policy: TargetPolicy) {
  let pair = agents.get(policy.allowLoopback);
  if (!pair) {
    const lookup = guardedLookup(policy);
    pair = {
      http: new http.Agent({ keepAlive: true, lookup }),
      https: new https.Agent({ keepAlive: true, lookup }),
    };
    agents.set(policy.allowLoopback, pair);
  }
  return pair;
}

/** One POST without redirects; resolves with the status, rejects PushTargetError when refused. */
function post(
  endpoint: string,
  request: { method: string; headers: Record<string, string>; body: Buffer | null },
  policy: TargetPolicy,
): Promise<number> {
  const url = new URL(endpoint);
  // An IP literal never reaches the lookup: check it here.
  const literal = literalAddress(url.hostname);
  if (literal !== null && !addressAllowed(literal, policy))
    return Promise.reject(new PushTargetError('internal', `${literal} is internal`));
  const secure = url.protocol === 'https:';
  const pair = agentsFor(policy);
  const send = secure ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: request.method,
        headers: request.headers,
        agent: secure ? pair.https : pair.http,
        signal: AbortSignal.timeout(10_000),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    // A refused lookup arrives here as the PushTargetError guardedLookup gave the socket.
    req.on('error', reject);
    req.end(request.body ?? undefined);
  });
}

/**
 * Encrypts (RFC 8291 aes128gcm) and signs (VAPID, RFC 8292) with web-push, then POSTs the request
 * it built through the guarded agents, which also reach the http: endpoints allowed for local tests.
 * 404/410 mean the subscription expired: the caller deletes it.
 */
export async function sendPush(
  keys: VapidKeys,
  subject: string,
  sub: StoredSubscription,
  payload: PushPayload,
  policy: TargetPolicy,
): Promise<PushResult> {
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 24 * 3600,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
      topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || undefined,
    },
  );
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(details.headers)) headers[k] = String(v);
  let status: number;
  try {
    status = await post(
      details.endpoint,
      { method: details.method, headers, body: details.body ? Buffer.from(details.body) : null },
      policy,
    );
  } catch (err) {
    if (err instanceof PushTargetError && err.reason === 'internal') return 'refused';
    throw err;
  }
  if (status === 404 || status === 410) return 'gone';
  return status >= 200 && status < 300 ? 'sent' : 'failed';
}

export const pushLimits = { max: NOTIFICATION_LIMITS.pushSubscriptionsMax };
