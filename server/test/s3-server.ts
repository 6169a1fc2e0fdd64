import crypto from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's one built-in key pair: it checks signatures made with it. */
const KEY = 'S3RVER';

/**
 * s3rver encrypts the continuation token of a ListObjectsV2 page that is cut short with DES,
 * which OpenSSL 3 (Node 20) no longer offers: every listing with more keys than MaxKeys answered
 * 500. The token is opaque to clients, so in a process that runs s3rver, DES (and only DES) is an
 * identity transform: the token becomes the IV plus the plain `{region}/{bucket}/{key}`, and s3rver
 * reads it back the same way. Real buckets page as before.
 */
function letS3rverPage(): void {
  type Transform = Pick<crypto.Cipher, 'update' | 'final'>;
  const plain = (): Transform =>
    ({
      update: (data: string | NodeJS.ArrayBufferView, encoding?: BufferEncoding) =>
        typeof data === 'string'
          ? Buffer.from(data, encoding)
          : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      final: () => Buffer.alloc(0),
    }) as unknown as Transform;
  const mutable = crypto as unknown as {
    createCipheriv: (algorithm: string, ...rest: unknown[]) => Transform;
    createDecipheriv: (algorithm: string, ...rest: unknown[]) => Transform;
  };
  const { createCipheriv, createDecipheriv } = mutable;
  if ((createCipheriv as { plainDes?: true }).plainDes) return;
  const cipher = (algorithm: string, ...rest: unknown[]) =>
    algorithm === 'des' ? plain() : createCipheriv(algorithm, ...rest);
  mutable.createCipheriv = Object.assign(cipher, { plainDes: true as const });
  mutable.createDecipheriv = (algorithm: string, ...rest: unknown[]) =>
    algorithm === 'des' ? plain() : createDecipheriv(algorithm, ...rest);
}

/**
 * A real S3-protocol server for tests (s3rver on a loopback port, its own temp folder), with the
 * controls a test needs to see what the app does when the bucket fails:
 * - stop() / start(): the bucket goes away (open connections cut, new ones refused), then comes
 *   back on the same port with the same objects;
 * - dieAfterPuts(n): the bucket accepts n more uploads, then goes away before answering the next
 *   (between a photo and its thumbnail, say);
 * - hang(): the bucket takes requests and never answers them (until start());
 * - keys(prefix): what the bucket holds;
 * - env: the app's S3_* settings for it, PHOTO_BASE_URL pointing at the bucket itself.
 * Used by the media tests and the cluster helper.
 */
export class S3TestServer {
  private server: http.Server | undefined;
  private readonly sockets = new Set<Socket>();
  private putsLeft = Infinity;
  private hung = false;
  port = 0;
  /** A client of the bucket for the test's own checks (listing what it holds). */
  client!: S3Client;

  private constructor(
    readonly bucket: string,
    /** The temp folder close() removes (null: the caller's folder, kept). */
    private readonly dir: string | null,
    private readonly handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  ) {}

  /**
   * `port`: a fixed loopback port (default: any free one). `directory`: where objects are kept
   * (default: a fresh temp folder, removed by close(); a given one is kept).
   */
  static async start(
    bucket = 'campus-photos',
    options: { port?: number; directory?: string } = {},
  ): Promise<S3TestServer> {
    letS3rverPage();
    const dir = options.directory ?? (await mkdtemp(path.join(tmpdir(), 'cm-s3-')));
    const s3rver = new S3rver({ silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
    await s3rver.configureBuckets();
    const server = new S3TestServer(bucket, options.directory ? null : dir, s3rver.callback());
    await server.listen(options.port ?? 0);
    server.client = new S3Client({
      region: 'us-east-1',
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: KEY, secretAccessKey: KEY },
    });
    return server;
  }

  /** `http://127.0.0.1:{port}`: S3_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Where the bucket's objects are read anonymously (path-style): PHOTO_BASE_URL in tests. */
  get publicBaseUrl(): string {
    return `${this.endpoint}/${this.bucket}`;
  }

  /** The app's environment for this bucket. */
  get env(): Record<string, string> {
    return {
      S3_BUCKET: this.bucket,
      S3_ENDPOINT: this.endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
      PHOTO_BASE_URL: this.publicBaseUrl,
    };
  }

  private async listen(port: number): Promise<void> {
    const server = http.createServer((req, res) => {
      // Hung: the request is read and left unanswered; stop()/start() cut it.
      if (this.hung) return;
      if (req.method === 'PUT') {
        if (this.putsLeft <= 0) {
          // The bucket dies with this upload in flight.
          req.socket.destroy();
          void this.stop();
          return;
        }
        this.putsLeft -= 1;
      }
      this.handler(req, res);
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** The bucket goes away: connections cut, new ones refused until start(). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The bucket is back on the same port, with what it held. */
  async start(): Promise<void> {
    this.putsLeft = Infinity;
    if (this.hung) {
      this.hung = false;
      await this.stop();
    }
    if (!this.server) await this.listen(this.port);
  }

  /** Takes every request from now on and answers none, until start(). */
  hang(): void {
    this.hung = true;
  }

  /** Accepts `n` more uploads, then goes away (stop()) with the next one in flight. */
  dieAfterPuts(n: number): void {
    this.putsLeft = n;
  }

  /** Every object key under `prefix`, sorted. */
  async keys(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async close(): Promise<void> {
    await this.stop();
    this.client.destroy();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
