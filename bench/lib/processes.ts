/** Child processes of the benchmarks: ports, start-up, shutdown. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { repoRoot } from './paths.js';

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

/** Ends a child process: SIGTERM, SIGKILL after `graceMs`; resolves once it has exited. */
export function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Runs a TypeScript server script of the benchmarks (through tsx) that prints `listening <port>`
 * once it accepts connections, and resolves with that port. The script's stderr shows here.
 */
export async function startScript(
  script: string,
  options: { env?: Record<string, string>; nodeArgs?: string[]; args?: string[] } = {},
): Promise<{ child: ChildProcess; port: number; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...(options.args ?? [])],
    { cwd: repoRoot, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        // Keep draining: a full pipe would block the child.
        child.stdout?.resume();
        resolve(Number(m[1]));
      }
    };
    const onExit = (code: number | null) => reject(new Error(`${script} exited early (${code}): ${out}`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
  return { child, port, stop: () => stopProcess(child) };
}
