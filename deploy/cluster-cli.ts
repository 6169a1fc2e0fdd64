/**
 * `npm run cluster`: CLUSTER_PROCESSES (2) app processes behind nginx on CLUSTER_PORT (8080), on
 * loopback, against DATABASE_URL (PostgreSQL) and REDIS_URL, with the bucket when S3_BUCKET is set.
 * Builds what is missing, waits until /readyz answers through nginx, prints the address, and on
 * Ctrl-C or SIGTERM stops nginx and every process before it exits. Every other setting of the
 * app (README's configuration table) passes through to the processes.
 */
import path from 'node:path';
import { buildIfNeeded, nginxBinary, REPO_ROOT, startCluster, type Cluster } from './cluster.js';

function fail(message: string): never {
  process.stderr.write(`npm run cluster: ${message}\n`);
  process.exit(2);
}

const processes = Number(process.env.CLUSTER_PROCESSES ?? 2);
const port = Number(process.env.CLUSTER_PORT ?? 8080);
if (!Number.isInteger(processes) || processes < 1 || processes > 32)
  fail('CLUSTER_PROCESSES must be a whole number from 1 to 32');
if (!Number.isInteger(port) || port < 1 || port > 65535) fail('CLUSTER_PORT must be a port number');
if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? ''))
  fail('DATABASE_URL must name a PostgreSQL database (postgres://…): every process shares it');
if (!/^rediss?:\/\//.test(process.env.REDIS_URL ?? ''))
  fail('REDIS_URL must name a Redis server (redis://…): chat and rate limits cross processes through it');
if (!nginxBinary()) fail('nginx is not installed (Debian: apt-get install nginx)');

const log = (line: string) => process.stderr.write(`[cluster] ${line}\n`);
const dataDir = path.resolve(REPO_ROOT, process.env.DATA_DIR ?? 'data/cluster');
buildIfNeeded({ web: process.env.CLUSTER_WEB !== '0', log });

let cluster: Cluster | undefined;
let stopping: Promise<void> | undefined;
const shutdown = (code: number) => {
  stopping ??= (async () => {
    log('stopping nginx and the app processes');
    await cluster?.stop();
    process.exit(code);
  })();
  return stopping;
};
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  cluster = await startCluster({
    processes,
    port,
    dataDir,
    nginxWorkers: 'auto',
    log,
    onUnexpectedExit: (what) => {
      log(`${what} stopped: stopping the cluster`);
      void shutdown(1);
    },
  });
} catch (err) {
  log((err as Error).message);
  await shutdown(1);
}
if (cluster) {
  const ports = cluster.apps.map((a) => a.port).join(', ');
  log(`${processes} app processes on 127.0.0.1 (ports ${ports}), data in ${dataDir}`);
  log(`ready: ${cluster.url} (nginx → ${processes} processes; Ctrl-C stops everything)`);
  process.stdout.write(`${cluster.url}\n`);
}
