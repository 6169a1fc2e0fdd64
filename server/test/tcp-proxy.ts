import net from 'node:net';

/**
 * A real TCP proxy in front of Redis or PostgreSQL that a test controls, to see what the app does
 * when the dependency hangs or dies (no mock client: the app's own driver talks through it).
 * - freeze(): every connection, open or new, stops moving bytes both ways (a hung server);
 * - thaw(): bytes flow again;
 * - dropConnections(): cuts every open connection, keeps accepting new ones (a restart, a failover);
 * - down() / up(): the server dies (connections cut, new ones refused), then comes back on the
 *   same port;
 * - close(): cuts every connection and stops listening for good.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private frozen = false;
  private readonly flushers = new Set<() => void>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy for the host and port of `url` (redis://…, postgres://…). */
  static forUrl(url: string): TcpProxy {
    const u = new URL(url);
    const fallback = u.protocol.startsWith('redis') ? 6379 : 5432;
    return new TcpProxy(u.hostname, u.port ? Number(u.port) : fallback);
  }

  async start(port = 0): Promise<this> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** `127.0.0.1:{port}`, for building a URL by hand. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    for (const flush of this.flushers) flush();
  }

  dropConnections(): void {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
  }

  /** The server dies: every connection is cut and new ones are refused until up(). */
  async down(): Promise<void> {
    await this.close();
  }

  /** The server is back, on the same port. */
  async up(): Promise<void> {
    this.frozen = false;
    await this.start(this.port);
  }

  async close(): Promise<void> {
    this.dropConnections();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    // Bytes that arrive while frozen are held, not forwarded, until thaw().
    const held: Array<[net.Socket, Buffer]> = [];
    const forward = (to: net.Socket) => (chunk: Buffer) => {
      if (this.frozen) held.push([to, chunk]);
      else to.write(chunk);
    };
    const flush = () => {
      for (const [to, chunk] of held.splice(0)) to.write(chunk);
    };
    this.flushers.add(flush);
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    const end = () => {
      this.pairs.delete(pair);
      this.flushers.delete(flush);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  }
}
