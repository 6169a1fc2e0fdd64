/**
 * Renders deploy/nginx/campus-market.conf for a cluster on this machine (`npm run cluster`, the
 * cluster test, `npm run bench:scale`): the operator's file with only its addresses changed —
 * loopback app ports in the upstream, one loopback listen port, the locations file from this
 * checkout — inside a main configuration whose every path is under a scratch prefix, so nginx runs
 * unprivileged, in the foreground, without touching /etc/nginx, /var/lib/nginx or port 80.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEPLOY_DIR = path.dirname(fileURLToPath(import.meta.url));
export const SITE_FILE = path.join(DEPLOY_DIR, 'nginx', 'campus-market.conf');
export const LOCATIONS_FILE = path.join(DEPLOY_DIR, 'nginx', 'campus-market-locations.conf');

export interface NginxRenderOptions {
  /** The scratch prefix (nginx -p): pid, logs and temporary files go here. */
  prefix: string;
  /** The loopback port nginx listens on. */
  listenPort: number;
  /** The loopback ports of the app processes. */
  appPorts: number[];
  /** nginx worker processes (default 1). */
  workers?: number | 'auto';
  /** More directives inside the server block (the test's diagnostics), before the locations. */
  serverExtra?: string;
  /** Write an access log to <prefix>/access.log (default off: it is not what is measured). */
  accessLog?: boolean;
}

const UPSTREAM_SERVER = /^([ \t]*)server 127\.0\.0\.1:\d+( [^;\n]*)?;[ \t]*\n/gm;
const LISTEN = /^[ \t]*listen [^;\n]+;[ \t]*\n/gm;
const INCLUDE = /include \/etc\/nginx\/snippets\/campus-market-locations\.conf;/;

/** The site file with this cluster's addresses: throws when the file no longer has the expected shape. */
export function renderSite(site: string, options: NginxRenderOptions): string {
  const servers = [...site.matchAll(UPSTREAM_SERVER)];
  const listens = [...site.matchAll(LISTEN)];
  if (servers.length === 0)
    throw new Error(`${SITE_FILE}: no "server 127.0.0.1:PORT …;" line in the upstream`);
  if (listens.length === 0) throw new Error(`${SITE_FILE}: no "listen …;" line`);
  if (!INCLUDE.test(site)) throw new Error(`${SITE_FILE}: the locations file is not included`);
  const [first] = servers;
  const indent = first?.[1] ?? '    ';
  const params = first?.[2] ?? '';
  const upstream = options.appPorts.map((port) => `${indent}server 127.0.0.1:${port}${params};\n`).join('');
  let out = site;
  // The first server line becomes this cluster's list; the others go.
  let seen = 0;
  out = out.replace(UPSTREAM_SERVER, () => (seen++ === 0 ? upstream : ''));
  let listened = 0;
  out = out.replace(LISTEN, (line) => {
    const indentOf = /^[ \t]*/.exec(line)?.[0] ?? '    ';
    return listened++ === 0 ? `${indentOf}listen 127.0.0.1:${options.listenPort};\n` : '';
  });
  const extra = options.serverExtra ? `${options.serverExtra}\n    ` : '';
  return out.replace(INCLUDE, `${extra}include ${LOCATIONS_FILE};`);
}

/** The whole nginx.conf for `nginx -p prefix -c <file>`. */
export function renderNginxConfig(options: NginxRenderOptions): string {
  const p = (name: string) => path.join(options.prefix, name);
  const site = renderSite(readFileSync(SITE_FILE, 'utf8'), options);
  // Debian's nginx starts its workers as nobody when the master runs as root: they could not enter
  // a scratch prefix only root may read. As root, keep the workers root too (loopback trials only).
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};\n` : '';
  return `# Rendered from ${path.relative(process.cwd(), SITE_FILE) || SITE_FILE} for a local cluster; do not edit.
${user}worker_processes ${options.workers ?? 1};
worker_rlimit_nofile 16384;
events {
    worker_connections 8192;
}
http {
    access_log ${options.accessLog ? p('access.log') : 'off'};
    client_body_temp_path ${p('client_body')};
    proxy_temp_path ${p('proxy')};
    fastcgi_temp_path ${p('fastcgi')};
    uwsgi_temp_path ${p('uwsgi')};
    scgi_temp_path ${p('scgi')};
    default_type application/octet-stream;

${site}
}
`;
}

/**
 * The nginx arguments for a rendered config: foreground (the caller owns the process), the pid file
 * and error log under the prefix, and `-e` so not even start-up writes to the compiled-in log path.
 */
export function nginxArgs(prefix: string, configFile: string): string[] {
  const errorLog = path.join(prefix, 'error.log');
  return [
    '-p',
    prefix,
    '-c',
    configFile,
    '-e',
    errorLog,
    '-g',
    `daemon off; pid ${path.join(prefix, 'nginx.pid')}; error_log ${errorLog} warn;`,
  ];
}
