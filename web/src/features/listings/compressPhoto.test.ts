import { describe, expect, it, vi } from 'vitest';
import { LIMITS, MESSAGES, PHOTO_MESSAGES } from '@campus/contract';
import { checkPickedPhotos, preparePhoto } from './compressPhoto';

// No canvas or <img> here (Node): every conversion fails and no HEIC opens, as in Chrome.
const file = (name: string, type: string, bytes = 16) => new File([new Uint8Array(bytes)], name, { type });

describe('checkPickedPhotos', () => {
  it('keeps JPEG, PNG and WebP, and says why it refuses the rest', async () => {
    const { photos, problems } = await checkPickedPhotos([
      file('a.jpg', 'image/jpeg'),
      file('b.png', 'image/png'),
      file('c.webp', 'image/webp'),
      file('d.gif', 'image/gif'),
      file('IMG_0042.heic', ''),
    ]);
    expect(photos.map((p) => p.name)).toEqual(['a.jpg', 'b.png', 'c.webp']);
    expect(problems).toEqual([PHOTO_MESSAGES.typeNotAccepted, PHOTO_MESSAGES.convertFailed('IMG_0042.heic')]);
  });
});

describe('preparePhoto when the browser cannot convert', () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);

  it('sends a small JPEG as it is (the server re-encodes it)', async () => {
    const jpeg = file('a.jpg', 'image/jpeg');
    await expect(preparePhoto(jpeg)).resolves.toBe(jpeg);
  });

  it('refuses a JPEG over the size limit with a message', async () => {
    const big = file('big.jpg', 'image/jpeg', LIMITS.imageMaxBytes + 1);
    await expect(preparePhoto(big)).rejects.toThrow(MESSAGES.listingPhotoUnreadable);
  });

  it('never sends a PNG or HEIC the server would refuse: says to choose a JPEG or PNG', async () => {
    await expect(preparePhoto(file('b.png', 'image/png'))).rejects.toThrow(
      PHOTO_MESSAGES.convertFailed('b.png'),
    );
    await expect(preparePhoto(file('IMG_0042.heic', 'image/heic'))).rejects.toThrow(
      PHOTO_MESSAGES.convertFailed('IMG_0042.heic'),
    );
  });
});
