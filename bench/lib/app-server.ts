/**
 * Starts the real server as production runs it (lib/server-entry.ts: the bundle `npm start` runs)
 * on a loopback port and waits until /readyz answers 200 (routes registered, database reachable,
 * search index loaded).
 * Every benchmark that measures the app starts it here, so all of them run it with the same
 * production environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from './paths.js';
import { freePort, stopProcess } from './processes.js';
import { serverArgs } from './server-entry.js';

export interface AppServerOptions {
  jwtSecret: string;
  /** More environment (DATA_DIR, DATABASE_URL, …) over this process's. */
  env?: Record<string, string>;
  /** Inherited variables to drop (e.g. DATABASE_URL and REDIS_URL for a run that must use SQLite). */
  unset?: string[];
  /** Default: a free port. */
  port?: number;
  /**
   * The name the server listens on and clients use (HOST, PUBLIC_URL). A browser run needs
   * `localhost` (the page's origin, its cookie and the CSP's WebSocket URL all name it).
   */
  host?: '127.0.0.1' | 'localhost';
  /** The checkout to run (default: this one). */
  cwd?: string;
  /** Node flags before the script (a CPU profile, --trace-gc). */
  nodeArgs?: string[];
  /** Where the server's stdout goes (default: nowhere). Its stderr always shows. */
  stdout?: 'inherit' | 'ignore';
  /** How long start-up may take (default 60 s; a large corpus is read before the port opens). */
  timeoutMs?: number;
}

export interface AppServer {
  child: ChildProcess;
  port: number;
  /** `http://<host>:<port>`, what PUBLIC_URL says. */
  url: string;
  /** SIGTERM, then SIGKILL if the process has not exited after 10 s. */
  stop(): Promise<void>;
}

/**
 * The environment every measured server gets: production mode, request logging off (warn: the
 * figures are about the app, not about writing logs to a pipe), a mail server (production refuses
 * to start without one; the benchmarks send no mail, so nothing listens there).
 */
export function productionEnv(options: {
  jwtSecret: string;
  port: number;
  host?: string;
}): Record<string, string> {
  const host = options.host ?? '127.0.0.1';
  return {
    NODE_ENV: 'production',
    SMTP_URL: 'smtp://127.0.0.1:9',
    LOG_LEVEL: 'warn',
    JWT_SECRET: options.jwtSecret,
    HOST: host,
    PORT: String(options.port),
    PUBLIC_URL: `http://${host}:${options.port}`,
  };
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const port = options.port ?? (await freePort());
  const host = options.host ?? '127.0.0.1';
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of options.unset ?? []) delete inherited[name];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...serverArgs(options.cwd)], {
    cwd: options.cwd ?? repoRoot,
    env: { ...inherited, ...options.env, ...productionEnv({ jwtSecret: options.jwtSecret, port, host }) },
    stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
  });
  const url = `http://${host}:${port}`;
  const server: AppServer = { child, port, url, stop: () => stopProcess(child) };
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app server exited during start-up (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the app server did not become ready within ${options.timeoutMs ?? 300_000} ms`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
