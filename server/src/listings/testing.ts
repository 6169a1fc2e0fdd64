/** Test helpers for the listings module (used by its *.test.ts files only). */
import { randomBytes } from 'node:crypto';
import type { Listing } from '@campus/contract';
import sharp from 'sharp';
import { asStudent, type Student, type TestApp } from '../../test/helper.js';

export interface FilePart {
  field?: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** A multipart/form-data body, built by hand so tests control every byte. */
export function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const boundary = `----cm${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'image'}"; filename="${f.filename ?? 'photo.jpg'}"\r\nContent-Type: ${f.contentType ?? 'image/jpeg'}\r\n\r\n`,
      ),
    );
    chunks.push(f.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const validFields = (overrides: Record<string, string> = {}): Record<string, string> => ({
  name: 'Graphing calculator',
  category: 'ELECTRONICS',
  description: 'TI-84 Plus, works great, batteries included.',
  price: '45.50',
  ...overrides,
});

/** A real JPEG made by sharp: a colour gradient of the given size. */
export async function makeJpeg(width = 800, height = 600, options: { exif?: boolean } = {}): Promise<Buffer> {
  let img = sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } }).jpeg({
    quality: 80,
  });
  if (options.exif) {
    // Orientation 6 (rotate 90° clockwise) plus camera and GPS tags, as a phone would write them.
    img = img
      .withExif({
        IFD0: { Make: 'SpyCam', Model: 'Tracker 3000' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '42/1 43/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '84/1 28/1 0/1',
        },
      })
      .withMetadata({ orientation: 6 });
  }
  return img.toBuffer();
}

/** Posts a listing as the student; returns the new listing (the newest of theirs). */
export async function postListing(
  t: TestApp,
  student: Student,
  fields: Record<string, string> = validFields(),
  image?: Buffer,
): Promise<Listing> {
  const form = multipart(fields, image ? [{ data: image }] : []);
  const res = await asStudent(t, student, { method: 'POST', url: '/listing', ...form });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  const mine = await asStudent(t, student, { method: 'GET', url: '/listings/self?limit=1' });
  const [listing] = mine.json() as Listing[];
  if (!listing) throw new Error('created listing not found');
  return listing;
}
