import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import type { Student, TestApp } from './helper.js';

/** What a test reads of an answer, whether injected or received over a socket. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json(): unknown;
}

/**
 * Requests over a real keep-alive connection to the listening app (`t.app.listen` first): the way
 * browsers come, and the only way into the fast lane (http/fast-lane.ts), which `inject` passes by.
 * One socket for every student, so the connection's remembered token changes hands too.
 */
export function overSocket(t: TestApp) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (headers: Record<string, string>, options: InjectOptions) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = options.payload === undefined ? undefined : JSON.stringify(options.payload);
      const req = http.request(
        {
          host: '127.0.0.1',
          port: (t.app.server.address() as AddressInfo).port,
          method: options.method ?? 'GET',
          path: options.url as string,
          agent,
          headers: {
            ...(options.headers as Record<string, string> | undefined),
            ...headers,
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString();
            resolve({
              statusCode: res.statusCode ?? 0,
              headers: res.headers,
              body,
              json: () => JSON.parse(body) as unknown,
            });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return {
    agent,
    as: (student: Pick<Student, 'token'>, options: InjectOptions) =>
      send({ authorization: `Bearer ${student.token}` }, options),
    anonymous: (options: InjectOptions) => send({}, options),
  };
}
