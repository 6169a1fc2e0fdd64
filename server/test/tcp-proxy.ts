/**
 * A TCP proxy a test controls, put between the app and a real dependency (Redis) to make it hang
 * or go away without mocking the client: `freeze()` keeps every connection open and moves no
 * bytes (a hung server), `thaw()` lets the held bytes through, `down()` drops every connection and
 * refuses new ones (a dead server), `up()` accepts again on the same port.
 */
import net from 'node:net';

export class TcpProxy {
  private server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private frozen = false;
  private port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = this.createServer();
  }

  /** Starts listening on a random loopback port; answers `redis://`-style host:port. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return `127.0.0.1:${this.port}`;
  }

  /** For a URL like redis://127.0.0.1:6379/0: a proxy to its host and port. */
  static forUrl(url: string): TcpProxy {
    const u = new URL(url);
    return new TcpProxy(u.hostname, Number(u.port || 6379));
  }

  freeze(): void {
    this.frozen = true;
    for (const s of this.sockets) s.pause();
  }

  thaw(): void {
    this.frozen = false;
    for (const s of this.sockets) s.resume();
  }

  async down(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }

  async up(): Promise<void> {
    this.frozen = false;
    this.server = this.createServer();
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private createServer(): net.Server {
    return net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(from);
        if (this.frozen) from.pause();
        from.on('data', (chunk: Buffer) => to.write(chunk));
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
      }
    });
  }
}
