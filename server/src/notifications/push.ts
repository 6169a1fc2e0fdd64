import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  NOTIFICATION_LIMITS,
  NOTIFY_MESSAGES,
  pushSubscriptionBody,
  type PushPayload,
} from '@campus/contract';
import webpush from 'web-push';
import type { AppContext } from '../context.js';
import { badRequest, parseOr400 } from '../http/errors.js';

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

export type PushResult = 'sent' | 'gone' | 'failed';

/**
 * Encrypts (RFC 8291 aes128gcm) and signs (VAPID, RFC 8292) with web-push, then POSTs the request
 * it built with fetch, which also reaches the http: endpoints allowed for local tests.
 * 404/410 mean the subscription expired: the caller deletes it.
 */
export async function sendPush(
  keys: VapidKeys,
  subject: string,
  sub: StoredSubscription,
  payload: PushPayload,
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
  const response = await fetch(details.endpoint, {
    method: details.method,
    headers,
    body: details.body ? new Uint8Array(details.body) : undefined,
    redirect: 'error',
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  if (response.status === 404 || response.status === 410) return 'gone';
  return response.ok ? 'sent' : 'failed';
}

export const pushLimits = { max: NOTIFICATION_LIMITS.pushSubscriptionsMax };
