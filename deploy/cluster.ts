/**
 * A cluster on one machine, as deploy/README.md runs it in production: N app processes on loopback
 * ports against one PostgreSQL database, one Redis and (optionally) one bucket, behind nginx with
 * deploy/nginx/campus-market.conf. `npm run cluster` runs it for trials (deploy/cluster-cli.ts);
 * the cluster test and `npm run bench:scale` start it through `startCluster`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { nginxArgs, renderNginxConfig, DEPLOY_DIR } from './nginx-config.js';

export const REPO_ROOT = path.resolve(DEPLOY_DIR, '..');
const SERVER_BUNDLE = path.join(REPO_ROOT, 'server', 'dist', 'main.js');

/** Debian's nginx (or NGINX_BIN), or null when it is not installed. */
export function nginxBinary(): string | null {
  const candidates = [process.env.NGINX_BIN, '/usr/sbin/nginx'].filter((c): c is string => !!c);
  for (const c of candidates) if (existsSync(c)) return c;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

/** A port nothing listens on right now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Builds the server bundle when it is missing or older than the server's or the contract's source
 * (esbuild, seconds), and the web app when `web` is asked and web/dist is missing.
 */
export function buildIfNeeded(options: { web: boolean; log: (line: string) => void }): void {
  const sources = Math.max(
    newestMtime(path.join(REPO_ROOT, 'server', 'src')),
    newestMtime(path.join(REPO_ROOT, 'contract', 'src')),
  );
  if (!existsSync(SERVER_BUNDLE) || statSync(SERVER_BUNDLE).mtimeMs < sources) {
    options.log('building the server bundle (server/dist)');
    const built = spawnSync(process.execPath, ['build.mjs'], {
      cwd: path.join(REPO_ROOT, 'server'),
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('the server build failed');
  }
  if (options.web && !existsSync(path.join(REPO_ROOT, 'web', 'dist', 'index.html'))) {
    options.log('building the web app (web/dist)');
    const built = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the web build failed');
  }
}

/** The node flags `npm start` gives the server (today --no-memory-reducer), read from package.json. */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const match = /node\s+((?:--[\w-]+(?:=\S+)?\s+)*)server\/dist\/main\.js/.exec(pkg.scripts?.start ?? '');
  if (!match) throw new Error("package.json's start script does not run node … server/dist/main.js");
  return (match[1] ?? '').split(/\s+/).filter(Boolean);
}

export interface ClusterOptions {
  /** App processes (default 2). */
  processes?: number;
  /** nginx's loopback port (default: a free one). */
  port?: number;
  /** The app processes' environment over this process's (DATABASE_URL, REDIS_URL, S3_…, …). */
  env?: Record<string, string>;
  /** Inherited variables the app processes must not see. */
  unset?: string[];
  /** The processes' shared DATA_DIR (generated secrets, disk uploads). */
  dataDir: string;
  /** nginx worker processes (default 1). */
  nginxWorkers?: number | 'auto';
  /** More directives in nginx's server block (the test's diagnostics). */
  nginxServerExtra?: string;
  /** Node flags before the server's own (default: none). */
  nodeArgs?: string[];
  /** The app processes' output: each line prefixed with its process (default) or dropped. */
  appOutput?: 'prefixed' | 'ignore';
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
  /** Called when a process of the cluster exits while it is not being stopped. */
  onUnexpectedExit?: (what: string, code: number | null) => void;
  /** How long each process may take to become ready (default 120 s). */
  readyTimeoutMs?: number;
}

export interface ClusterApp {
  port: number;
  child: ChildProcess;
}

export interface Cluster {
  /** nginx's address: what PUBLIC_URL says and clients use. */
  url: string;
  port: number;
  apps: ClusterApp[];
  nginx: ChildProcess;
  /** The scratch prefix of nginx (its error log is error.log there). */
  prefix: string;
  /** nginx first (no new requests), then every app process; resolves once all have exited. */
  stop(): Promise<void>;
}

/** Ends a child process: `signal`, SIGKILL after `graceMs`; resolves once it has exited. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

async function waitReady(url: string, child: ChildProcess, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited during start-up (${child.exitCode ?? child.signalCode})`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url}/readyz within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function prefixLines(stream: NodeJS.ReadableStream | null, label: string, out: NodeJS.WritableStream) {
  if (!stream) return;
  createInterface({ input: stream }).on('line', (line) => out.write(`[${label}] ${line}\n`));
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[cluster] ${line}\n`));
  const nginxBin = nginxBinary();
  if (!nginxBin) throw new Error('nginx is not installed (Debian: apt-get install nginx)');
  const count = options.processes ?? 2;
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(options.dataDir, { recursive: true });
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'cm-nginx-'));
  const apps: ClusterApp[] = [];
  let nginx: ChildProcess | undefined;
  let stopping = false;
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of options.unset ?? []) delete inherited[name];

  const watch = (child: ChildProcess, what: string) =>
    child.once('exit', (code) => {
      if (!stopping) {
        log(`${what} exited (${code ?? child.signalCode})`);
        options.onUnexpectedExit?.(what, code);
      }
    });

  const startApp = async (index: number, shared: Record<string, string>): Promise<ClusterApp> => {
    const appPort = await freePort();
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...startFlags(), SERVER_BUNDLE], {
      cwd: REPO_ROOT,
      env: {
        PUBLIC_URL: url,
        ...inherited,
        ...options.env,
        ...shared,
        DATA_DIR: options.dataDir,
        HOST: '127.0.0.1',
        PORT: String(appPort),
        TRUST_PROXY: 'true',
      },
      stdio: ['ignore', options.appOutput === 'ignore' ? 'ignore' : 'pipe', 'pipe'],
    });
    const label = `app ${index + 1} :${appPort}`;
    prefixLines(child.stdout, label, process.stdout);
    prefixLines(child.stderr, label, process.stderr);
    const app = { port: appPort, child };
    apps.push(app);
    await waitReady(`http://127.0.0.1:${appPort}`, child, label, options.readyTimeoutMs ?? 120_000);
    watch(child, label);
    return app;
  };

  const stop = async () => {
    stopping = true;
    if (nginx) await stopChild(nginx, 'SIGTERM', 5_000);
    await Promise.all(apps.map((a) => stopChild(a.child)));
    await rm(prefix, { recursive: true, force: true });
  };

  try {
    // The first process alone: it migrates the database and, unless the environment gives them,
    // writes the JWT secret and the VAPID keys into DATA_DIR, which every other process then gets.
    await startApp(0, {});
    const shared: Record<string, string> = {};
    const env = { ...inherited, ...options.env };
    if (!env.JWT_SECRET)
      shared.JWT_SECRET = readFileSync(path.join(options.dataDir, 'jwt-secret'), 'utf8').trim();
    const vapidFile = path.join(options.dataDir, 'vapid.json');
    if (!env.VAPID_PUBLIC_KEY && existsSync(vapidFile)) {
      const keys = JSON.parse(readFileSync(vapidFile, 'utf8')) as { publicKey: string; privateKey: string };
      shared.VAPID_PUBLIC_KEY = keys.publicKey;
      shared.VAPID_PRIVATE_KEY = keys.privateKey;
    }
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => startApp(i + 1, shared)));

    const configFile = path.join(prefix, 'nginx.conf');
    writeFileSync(
      configFile,
      renderNginxConfig({
        prefix,
        listenPort: port,
        appPorts: apps.map((a) => a.port),
        workers: options.nginxWorkers,
        serverExtra: options.nginxServerExtra,
      }),
    );
    const tested = spawnSync(nginxBin, [...nginxArgs(prefix, configFile), '-t', '-q'], { encoding: 'utf8' });
    if (tested.status !== 0) throw new Error(`nginx refuses the configuration:\n${tested.stderr}`);
    nginx = spawn(nginxBin, nginxArgs(prefix, configFile), { stdio: ['ignore', 'ignore', 'pipe'] });
    prefixLines(nginx.stderr, 'nginx', process.stderr);
    await waitReady(url, nginx, 'nginx', 30_000);
    watch(nginx, 'nginx');
  } catch (err) {
    const error = existsSync(path.join(prefix, 'error.log'))
      ? readFileSync(path.join(prefix, 'error.log'), 'utf8').trim()
      : '';
    await stop();
    if (error) log(`nginx error log:\n${error}`);
    throw err;
  }
  return { url, port, apps, nginx, prefix, stop };
}
