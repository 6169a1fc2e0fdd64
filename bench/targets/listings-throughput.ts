/** Read throughput of the app beside a bare node:http server given the same requests. */
import autocannon from 'autocannon';
import { startBareServer } from '../lib/bare.js';
import { get } from './listings-queries.js';
import type { Throughput } from './listings-report.js';

/** autocannon's settings for one run: connections, seconds, and app/bare pairs per URL. */
export interface RunSettings {
  connections: number;
  seconds: number;
  repeats: number;
}

function cannon(run: RunSettings, port: number, url: string, token?: string): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}${url}`,
    connections: run.connections,
    duration: run.seconds,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/**
 * Requests/second of one GET on the app and on a bare node:http server answering the same bytes:
 * `repeats` back-to-back pairs, the median ratio reported.
 */
export async function throughput(
  run: RunSettings,
  appPort: number,
  token: string,
  url: string,
  workDir: string,
): Promise<Throughput> {
  const sample = await get(appPort, url, token);
  if (sample.status !== 200) throw new Error(`${url} -> ${sample.status}`);
  // The same bytes: status, body and every header the app sent (lib/bare.ts).
  const bare = await startBareServer(sample, workDir);
  try {
    // Warm both, then measure alternately: app, bare. Both get the same request (the student's
    // bearer token: the bare server parses that header too) and answer the same bytes.
    for (const port of [appPort, bare.port]) {
      await autocannon({
        url: `http://127.0.0.1:${port}${url}`,
        connections: run.connections,
        duration: 2,
        headers: { authorization: `Bearer ${token}` },
      });
    }
    // Pairs back to back, alternating which goes first, so that a change in the machine's load
    // (other engineers' work) hits both sides of a ratio alike; the median pair is reported.
    const pairs: Array<{ app: autocannon.Result; bare: autocannon.Result; ratio: number }> = [];
    for (let i = 0; i < run.repeats; i += 1) {
      let appRun: autocannon.Result;
      let bareRun: autocannon.Result;
      if (i % 2 === 0) {
        appRun = await cannon(run, appPort, url, token);
        bareRun = await cannon(run, bare.port, url, token);
      } else {
        bareRun = await cannon(run, bare.port, url, token);
        appRun = await cannon(run, appPort, url, token);
      }
      if (appRun.non2xx > 0) throw new Error(`${url}: ${appRun.non2xx} non-2xx answers from the app`);
      pairs.push({ app: appRun, bare: bareRun, ratio: appRun.requests.average / bareRun.requests.average });
    }
    const sorted = [...pairs].sort((a, b) => a.ratio - b.ratio);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    return {
      path: url,
      app: median.app.requests.average,
      bare: median.bare.requests.average,
      ratio: median.ratio,
      ratios: pairs.map((p) => p.ratio),
      appP99: median.app.latency.p99,
      bareP99: median.bare.latency.p99,
      bytes: sample.body.length,
    };
  } finally {
    await bare.stop();
  }
}
