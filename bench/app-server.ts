/**
 * Starts the real server as production runs it (bench/server-entry.ts: the bundle `npm start` runs,
 * NODE_ENV=production) on a random loopback port and waits until /healthz answers 200.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverArgs } from './server-entry.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface AppServerOptions {
  jwtSecret: string;
  /** More environment (DATA_DIR, DATABASE_URL, …) over this process's. */
  env?: Record<string, string>;
  /** The checkout to run (default: this one). */
  cwd?: string;
  /** Node flags before the script (a CPU profile, --trace-gc). */
  nodeArgs?: string[];
  /** Where the server's stdout goes (default: nowhere). */
  stdout?: 'inherit' | 'ignore';
}

export async function startAppServer(
  options: AppServerOptions,
): Promise<{ child: ChildProcess; port: number }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...serverArgs(options.cwd)], {
    cwd: options.cwd ?? root,
    // Request logging off (warn): the figures are about the app, not about writing logs to a pipe.
    env: {
      ...process.env,
      ...options.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // Production refuses to start without a mail server; the benchmarks send no mail.
      SMTP_URL: 'smtp://127.0.0.1:9',
      JWT_SECRET: options.jwtSecret,
    },
    stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (let i = 0; i < 600; i += 1) {
    if (exited) throw new Error('the app server exited during start-up');
    const ok = await new Promise<boolean>((resolve) => {
      http
        .get({ host: '127.0.0.1', port, path: '/healthz' }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        })
        .on('error', () => resolve(false));
    });
    if (ok) return { child, port };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the app server did not start');
}
