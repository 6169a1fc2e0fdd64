import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** 10:00 campus time (America/Detroit) on the first day after `from`: daytime for quiet-hour rules. */
export function campusMorning(from: number, hour = 10): number {
  // Detroit is UTC-4 or UTC-5; 15:00 UTC is 10:00 or 11:00 there, both daytime.
  const d = new Date(from + 86_400_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour + 5);
}

export interface ReceivedPush {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A stand-in push service on a local port: records what it receives and answers `status`.
 * A browser's keys (P-256 pair + auth secret) come with it so tests can decrypt like a browser.
 */
export async function startPushService(status = () => 201) {
  const received: ReceivedPush[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = status();
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function browserKeys(): { ecdh: ECDH; p256dh: string; auth: string; authBytes: Buffer } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authBytes = randomBytes(16);
  return {
    ecdh,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: authBytes.toString('base64url'),
    authBytes,
  };
}

/**
 * Decrypts an RFC 8291 `aes128gcm` body the way a browser does, written from the RFC (not with the
 * library that encrypted it): header (salt, rs, keyid = sender key), ECDH + HKDF, AES-128-GCM.
 */
export function decryptPush(body: Buffer, keys: { ecdh: ECDH; authBytes: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = keys.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, keys.authBytes, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // Last record: content, then the 0x02 delimiter, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('bad padding delimiter');
  return padded.subarray(0, end).toString('utf8');
}
