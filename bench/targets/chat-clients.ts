/** The chat benchmark's clients: stock @stomp/stompjs, one loopback address per student. */
import { Client } from '@stomp/stompjs';
import WebSocket from 'ws';

export interface Peer {
  client: Client;
  userId: number;
}

/**
 * Each student connects from its own loopback address (127.0.x.y), as students do from their own
 * phones: the server's per-IP cap on sockets that have not sent CONNECT yet stays on.
 */
export function connectClient(port: number, token: string, index: number): Promise<Client> {
  const localAddress = `127.0.${Math.floor(index / 250) + 1}.${(index % 250) + 1}`;
  return new Promise((resolve, reject) => {
    const client = new Client({
      webSocketFactory: () =>
        new WebSocket(`ws://127.0.0.1:${port}/ws`, ['v12.stomp', 'v11.stomp', 'v10.stomp'], {
          localAddress,
        }),
      connectHeaders: { Authorization: `Bearer ${token}` },
      reconnectDelay: 0,
      heartbeatIncoming: 10_000,
      heartbeatOutgoing: 10_000,
      debug: () => {},
    });
    const timer = setTimeout(() => reject(new Error('connect timeout')), 30_000);
    client.onConnect = () => {
      clearTimeout(timer);
      resolve(client);
    };
    client.onStompError = (f) => {
      clearTimeout(timer);
      reject(new Error(f.headers['message']));
    };
    client.onWebSocketError = () => {
      clearTimeout(timer);
      reject(new Error('websocket error'));
    };
    client.activate();
  });
}

export async function inBatches<T>(
  count: number,
  size: number,
  make: (i: number) => Promise<T>,
): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += size) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + size); i++) batch.push(make(i));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}
