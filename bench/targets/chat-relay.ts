/**
 * The chat benchmark's baseline (chat.bench.ts, mode "baseline"): the same clients and load against
 * a bare relay — same STOMP codec, no authentication check, no database, no rules — in its own
 * process. It shows what the machine, the loopback and the stompjs clients cost by themselves; the
 * app's figures are read against it. Listens on PORT (0: any free port) and prints
 * `listening <port>`.
 */
import { createServer as createHttpServer } from 'node:http';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { FrameParser, header, serializeFrame } from '../../server/src/chat/stomp/frame.js';

function relayMain(port: number): void {
  const subscribers = new Map<string, Set<{ ws: WebSocket; id: string }>>();
  const sockets = new Set<WebSocket>();
  let nextId = 0;
  const http = createHttpServer((_req, res) => res.writeHead(200).end('ok'));
  const wss = new WebSocketServer({
    server: http,
    path: '/ws',
    perMessageDeflate: false,
    handleProtocols: (p) => (p.has('v12.stomp') ? 'v12.stomp' : false),
  });
  wss.on('connection', (ws) => {
    sockets.add(ws);
    const parser = new FrameParser();
    const mine: Array<[string, { ws: WebSocket; id: string }]> = [];
    let userId = 0;
    const out = (f: Buffer) => ws.send(f, { binary: false });
    ws.on('message', (data: Buffer) => {
      for (const f of parser.push(Buffer.from(data)).frames) {
        const receipt = header(f, 'receipt');
        if (f.command === 'CONNECT' || f.command === 'STOMP') {
          const token = (header(f, 'Authorization') ?? '').replace(/^Bearer /, '');
          const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
            uid: number;
          };
          userId = claims.uid;
          out(serializeFrame('CONNECTED', { version: '1.2', 'heart-beat': '10000,0' }));
          continue;
        }
        if (f.command === 'SUBSCRIBE') {
          const dest = header(f, 'destination') ?? '';
          const sub = { ws, id: header(f, 'id') ?? '' };
          let set = subscribers.get(dest);
          if (!set) subscribers.set(dest, (set = new Set()));
          set.add(sub);
          mine.push([dest, sub]);
        } else if (f.command === 'SEND') {
          const [b, sl] = (header(f, 'destination') ?? '').split('/').slice(-2).map(Number) as [
            number,
            number,
          ];
          const roomId = b < sl ? `${b}:${sl}` : `${sl}:${b}`;
          const payload = JSON.parse(f.body.toString()) as { content: string; listingId: number };
          const id = ++nextId;
          const body = JSON.stringify({
            id,
            roomId,
            content: payload.content,
            url: null,
            senderId: userId,
            sentAt: new Date().toISOString(),
            listingId: payload.listingId,
          });
          const dest = `/user/queue/chat/${roomId}`;
          for (const sub of subscribers.get(dest) ?? []) {
            sub.ws.send(
              serializeFrame(
                'MESSAGE',
                {
                  subscription: sub.id,
                  'message-id': String(id),
                  destination: dest,
                  'content-type': 'application/json',
                },
                body,
              ),
              { binary: false },
            );
          }
        }
        if (receipt !== undefined) out(serializeFrame('RECEIPT', { 'receipt-id': receipt }));
        if (f.command === 'DISCONNECT') ws.close();
      }
    });
    ws.on('close', () => {
      sockets.delete(ws);
      for (const [dest, sub] of mine) subscribers.get(dest)?.delete(sub);
    });
  });
  setInterval(() => {
    for (const ws of sockets) ws.send('\n');
  }, 10_000).unref();
  http.listen(port, '127.0.0.1', () => {
    const address = http.address();
    process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
  });
  process.on('SIGTERM', () => {
    for (const ws of sockets) ws.terminate();
    http.close(() => process.exit(0));
  });
}

relayMain(Number(process.env.PORT ?? 0));
