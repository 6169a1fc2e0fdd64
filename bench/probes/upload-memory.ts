/**
 * Memory of listing uploads: six students post an 8-photo listing at the same moment (each photo a
 * 6-10 MB JPEG) over real HTTP; prints the process's resident memory before and at its peak.
 *
 *   npx tsx bench/probes/upload-memory.ts            # six students, one post each
 *   PROBE_SAME_STUDENT=1 npx tsx bench/probes/upload-memory.ts   # one student, six posts at once
 *
 * The peak is the kernel's high-water mark (VmHWM), reset just before the posts (clear_refs), so
 * short spikes between samples count too. The request bodies are built once, before the baseline.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { makeJpeg, multipart, validFields } from '../../server/src/listings/testing.js';
import { createStudent, createTestApp, type Student } from '../../server/test/helper.js';

const POSTS = 6;
const PHOTOS = 8;

function statusKb(field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(m?.[1] ?? 0);
}

/** A camera-like JPEG between 6 and 10 MB (random noise barely compresses). */
async function bigJpeg(): Promise<Buffer> {
  let width = 2400;
  for (;;) {
    const height = Math.round((width * 3) / 4);
    const raw = randomBytes(width * height * 3);
    const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 85 })
      .toBuffer();
    if (jpeg.length > 10 * 1024 * 1024) width = Math.round(width * 0.9);
    else if (jpeg.length < 6 * 1024 * 1024) width = Math.round(width * 1.1);
    else return jpeg;
  }
}

function post(port: number, token: string, body: { payload: Buffer; headers: Record<string, string> }) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        port,
        method: 'POST',
        path: '/listing',
        headers: { ...body.headers, authorization: `Bearer ${token}`, 'content-length': body.payload.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    // A server that answers before reading everything may close the connection mid-body.
    req.on('error', (err) => (req.writableEnded ? resolve(-1) : reject(err)));
    req.end(body.payload);
  });
}

async function main(): Promise<void> {
  const sameStudent = process.env.PROBE_SAME_STUDENT === '1';
  const t = await createTestApp({
    rateLimits: { 'upload:account': { points: 10_000, durationSeconds: 3600 } },
  });
  try {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port) || (t.app.server.address() as AddressInfo).port;
    const students: Student[] = [];
    for (let i = 0; i < (sameStudent ? 1 : POSTS); i += 1) students.push(await createStudent(t));
    const photo = await bigJpeg();
    const body = multipart(
      validFields({ name: 'Camera bag' }),
      Array.from({ length: PHOTOS }, () => ({ data: photo })),
    );
    // Warm-up: the first upload loads sharp/libvips and JIT-compiles the path.
    await post(port, students[0]!.token, multipart(validFields(), [{ data: await makeJpeg(1200, 900) }]));
    await t.app.ctx.jobs.stop();
    global.gc?.();
    await new Promise((r) => setTimeout(r, 500));
    writeFileSync('/proc/self/clear_refs', '5');
    const before = statusKb('VmRSS');
    let sampled = before;
    const sampler = setInterval(() => (sampled = Math.max(sampled, statusKb('VmRSS'))), 5);
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: POSTS }, (_, i) => post(port, students[sameStudent ? 0 : i]!.token, body)),
    );
    const ms = performance.now() - started;
    clearInterval(sampler);
    const peak = Math.max(statusKb('VmHWM'), sampled);
    const mb = (kb: number) => (kb / 1024).toFixed(0);
    console.log(
      `${POSTS} simultaneous ${PHOTOS}-photo posts (${(photo.length / 1048576).toFixed(1)} MB per photo, ` +
        `${(body.payload.length / 1048576).toFixed(0)} MB per post${sameStudent ? ', one student' : ', six students'})`,
    );
    console.log(`statuses: ${statuses.join(' ')}   wall: ${(ms / 1000).toFixed(1)} s`);
    console.log(`RSS before: ${mb(before)} MB   peak: ${mb(peak)} MB   delta: ${mb(peak - before)} MB`);
  } finally {
    await t.close();
  }
}

await main();
