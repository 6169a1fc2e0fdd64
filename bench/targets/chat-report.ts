/** The chat benchmark's figures (chat.bench.ts) and how they are reported. */
import { commandLine, measuredOn } from '../lib/report.js';
import { serverCommand } from '../lib/server-entry.js';

export interface Result {
  mode: string;
  processes: number;
  database: string;
  clients: number;
  rate: number;
  seconds: number;
  sent: number;
  delivered: number;
  lost: number;
  errors: number;
  disconnects: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  achievedRate: number;
  rssPerConnectionKiB: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  benchLoopP99: number;
  /** Server CPU time (all its processes, user + system) per delivered message, in ms. */
  serverCpuMsPerMessage: number;
  /** Server CPU use over the measured window, percent of one core. */
  serverCpuPercent: number;
  /** The machine's 1-minute load average around the measured window (other work included). */
  loadAverage: number;
}

const LABELS: Record<string, string> = {
  baseline: 'baseline: bare relay, no app',
  single: 'app, one process',
  redis: 'app, two processes via Redis',
  campuses: 'app, one process, pairs over many campuses',
};

export function table(results: Result[]): string {
  const lines = [
    '| run | database | clients | rate (msg/s) | duration | sent | lost | p50 | p95 | p99 | max | server CPU per message | server RSS per connection | load avg |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    lines.push(
      `| ${LABELS[r.mode]} | ${r.database} | ${r.clients} | ${r.achievedRate} (target ${r.rate}) | ${r.seconds} s | ${r.sent} | ${r.lost} | ${r.p50} ms | ${r.p95} ms | ${r.p99} ms | ${r.max} ms | ${r.serverCpuMsPerMessage} ms (${r.serverCpuPercent}% of a core) | ${r.rssPerConnectionKiB} KiB (${r.rssBeforeMiB} → ${r.rssAfterMiB} MiB) | ${r.loadAverage} |`,
    );
  }
  return lines.join('\n');
}

/** The report: the run's figures, between the doc's chat markers with BENCH_DOC=1 (lib/report.ts). */
export function report(
  results: Result[],
  skipped: string[],
  run: { clients: number; warmupSeconds: number },
): string {
  const single = results.find((r) => r.mode === 'single');
  const verdict = single
    ? `Budget (design §6): p99 under 50 ms on one process and 0 lost — ${single.p99 < 50 && single.lost === 0 ? '**met**' : '**not met**'} (p99 ${single.p99} ms, lost ${single.lost}).`
    : '';
  return [
    measuredOn(
      commandLine('bench:chat', [
        'BENCH_CHAT_',
        'BENCH_DATABASE_URL',
        'BENCH_REDIS_URL',
        'BENCH_SERVER',
        'TEST_',
      ]),
    ),
    `${run.clients} stock \`@stomp/stompjs\` clients in buyer/seller pairs (heart-beats 10 s both ways), each pair one room; ` +
      `latency is send → the peer's MESSAGE, measured in the client process. ` +
      `The server runs as its own process (${serverCommand()}, NODE_ENV=production); in the two-process run every pair has its buyer on process A and its seller on process B, so every message crosses Redis pub/sub. ` +
      `${run.warmupSeconds} s warm-up not counted.`,
    '',
    table(results),
    '',
    verdict,
    ...(skipped.length ? ['', `Skipped: ${skipped.join('; ')}.`] : []),
  ].join('\n');
}
