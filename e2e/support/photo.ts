import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** A real JPEG photo on disk for upload pickers (a warm gradient with a label). */
export async function makePhoto(name: string, label: string): Promise<string> {
  const dir = path.resolve('artifacts/fixtures');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.jpg`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#18453b"/><stop offset="1" stop-color="#7fb89c"/></linearGradient></defs>
    <rect width="1200" height="900" fill="url(#g)"/>
    <text x="600" y="470" font-size="96" font-family="sans-serif" fill="#fff" text-anchor="middle">${label}</text></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(file);
  return file;
}
