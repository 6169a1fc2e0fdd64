import { describe, expect, it } from 'vitest';
import { isAcceptedPhoto, isJpegFile, mayNotConvert, PHOTO_ACCEPT } from './photos.js';

const file = (name: string, type: string) => ({ name, type });

describe('photo types a student may pick', () => {
  it('names every type in the picker by MIME type and extension', () => {
    for (const part of ['image/jpeg', '.jpg', '.jpeg', 'image/png', '.png', 'image/webp', '.webp'])
      expect(PHOTO_ACCEPT.split(',')).toContain(part);
    expect(PHOTO_ACCEPT).toContain('image/heic');
    expect(PHOTO_ACCEPT).toContain('.heic');
  });

  it('takes JPEG, PNG, WebP and HEIC, and refuses the rest', () => {
    expect(isAcceptedPhoto(file('a.jpg', 'image/jpeg'))).toBe(true);
    expect(isAcceptedPhoto(file('a.png', 'image/png'))).toBe(true);
    expect(isAcceptedPhoto(file('a.webp', 'image/webp'))).toBe(true);
    expect(isAcceptedPhoto(file('IMG_0042.HEIC', 'image/heic'))).toBe(true);
    expect(isAcceptedPhoto(file('a.gif', 'image/gif'))).toBe(false);
    expect(isAcceptedPhoto(file('notes.pdf', 'application/pdf'))).toBe(false);
  });

  it('falls back to the name only when the system gives no type', () => {
    expect(isAcceptedPhoto(file('IMG_0042.heic', ''))).toBe(true);
    expect(isAcceptedPhoto(file('photo.JPG', ''))).toBe(true);
    expect(isAcceptedPhoto(file('a.gif', ''))).toBe(false);
    // A GIF renamed .jpg is still a GIF.
    expect(isAcceptedPhoto(file('a.jpg', 'image/gif'))).toBe(false);
  });

  it('marks HEIC as a type not every browser can convert', () => {
    expect(mayNotConvert(file('IMG_0042.heic', ''))).toBe(true);
    expect(mayNotConvert(file('x.heif', 'image/heif'))).toBe(true);
    expect(mayNotConvert(file('a.png', 'image/png'))).toBe(false);
    expect(isJpegFile(file('a.jpeg', 'image/jpeg'))).toBe(true);
    expect(isJpegFile(file('a.png', 'image/png'))).toBe(false);
  });
});
