/**
 * Baseline for the read benchmark: a bare node:http server answering every request with the
 * exact status, headers and body captured from the real app (BARE_RESPONSE names a JSON file).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface Captured {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const captured = JSON.parse(readFileSync(process.env.BARE_RESPONSE ?? '', 'utf8')) as Captured;
const body = Buffer.from(captured.body, 'base64');
const server = createServer((_req, res) => {
  res.writeHead(captured.status, captured.headers);
  res.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
