/**
 * The scale benchmark's photo uploads (scale.bench.ts): `POST /listing` with one photo through nginx,
 * sequentially, each by another student (the daily listing limit and the one-upload-at-a-time slot
 * stay as production has them). The time is the whole request: nginx receiving the body, the app
 * reading and checking it, making its variants and putting them in the bucket, and the listing's row.
 */
import sharp from 'sharp';
import { S3TestServer } from '../../server/test/s3-server.js';
import { percentiles, type Percentiles } from './listings-report.js';

export interface UploadResult {
  count: number;
  photoBytes: number;
  latency: Percentiles;
}

/** Where photos go: a real S3-protocol server (s3rver, server/test/s3-server.ts) on loopback. */
export async function bucketForBench(
  log: (line: string) => void,
): Promise<{ env: Record<string, string>; label: string; stop(): Promise<void> }> {
  const s3 = await S3TestServer.start('campus-photos');
  log(`bucket: s3rver at ${s3.endpoint}`);
  return {
    env: s3.env,
    label: `the bucket (s3rver, an S3-protocol server on loopback: \`server/test/s3-server.ts\`; photos served from \`PHOTO_BASE_URL\`)`,
    stop: () => s3.close(),
  };
}

/** A phone-sized photo (1600 × 1200) whose noise keeps the JPEG near a real photo's size. */
export function benchPhoto(): Promise<Buffer> {
  return sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: { r: 90, g: 120, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: 24 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export async function uploadLoad(options: {
  port: number;
  tokens: string[];
  log: (line: string) => void;
}): Promise<UploadResult> {
  const photo = await benchPhoto();
  const samples: number[] = [];
  for (const [i, token] of options.tokens.entries()) {
    const form = new FormData();
    form.set('name', `Desk lamp ${i}`);
    form.set('category', 'LIFESTYLE');
    form.set('description', 'Warm light, barely used. Pickup near the library.');
    form.set('price', '12');
    form.set('image', new Blob([photo], { type: 'image/jpeg' }), 'lamp.jpg');
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${options.port}/listing`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`upload ${i} -> ${res.status} ${text.slice(0, 200)}`);
    samples.push(performance.now() - started);
  }
  const latency = percentiles(samples);
  options.log(
    `uploads: ${samples.length} × ${(photo.length / 1024).toFixed(0)} KB, p50/p95 ${latency.p50.toFixed(1)}/${latency.p95.toFixed(1)} ms`,
  );
  return { count: samples.length, photoBytes: photo.length, latency };
}
