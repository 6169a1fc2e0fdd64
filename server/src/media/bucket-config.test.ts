/** The object-storage settings are checked at start-up, each problem a line naming its variable. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { BucketStorage } from './bucket-storage.js';

const BASE = {
  NODE_ENV: 'test',
  JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
  DATA_DIR: '/tmp/cm-x',
};
const BUCKET = {
  S3_BUCKET: 'campus-photos',
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_REGION: 'eu-west-1',
  S3_ACCESS_KEY_ID: 'id',
  S3_SECRET_ACCESS_KEY: 'secret',
  PHOTO_BASE_URL: 'https://photos.example.edu/',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...BASE, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('object storage settings', () => {
  it('keeps photos on disk without S3_BUCKET', () => {
    expect(loadConfig(BASE).bucket).toBeUndefined();
  });

  it('reads a bucket, its endpoint, region, key pair and the base URL (trailing slash dropped)', () => {
    expect(loadConfig({ ...BASE, ...BUCKET }).bucket).toEqual({
      bucket: 'campus-photos',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      photoBaseUrl: 'https://photos.example.edu',
    });
    // AWS itself: no endpoint, the SDK's credential chain, us-east-1 when no region is given.
    const aws = loadConfig({
      ...BASE,
      S3_BUCKET: 'campus-photos',
      PHOTO_BASE_URL: 'https://cdn.example.edu',
    });
    expect(aws.bucket).toMatchObject({ endpoint: undefined, region: 'us-east-1', credentials: undefined });
  });

  it('refuses a half key pair, a missing or malformed PHOTO_BASE_URL, a bad endpoint or bucket name', () => {
    expect(problems({ ...BUCKET, S3_SECRET_ACCESS_KEY: '' })).toEqual([
      expect.stringMatching(/^S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither/),
    ]);
    expect(problems({ ...BUCKET, PHOTO_BASE_URL: '' })).toEqual([
      expect.stringMatching(/^PHOTO_BASE_URL: must be set with S3_BUCKET/),
    ]);
    expect(problems({ ...BUCKET, PHOTO_BASE_URL: 'photos.example.edu' })).toEqual([
      expect.stringMatching(/^PHOTO_BASE_URL: must be an http/),
    ]);
    expect(problems({ ...BUCKET, PHOTO_BASE_URL: 'https://cdn.example.edu/?v=1' })).toEqual([
      expect.stringMatching(/^PHOTO_BASE_URL: must be an http/),
    ]);
    expect(problems({ ...BUCKET, S3_ENDPOINT: 'minio:9000' })).toEqual([
      expect.stringMatching(/^S3_ENDPOINT: must be an http/),
    ]);
    expect(problems({ ...BUCKET, S3_BUCKET: 'Campus_Photos' })).toEqual([
      expect.stringMatching(/^S3_BUCKET: /),
    ]);
  });

  it('refuses bucket settings without S3_BUCKET rather than ignoring them', () => {
    expect(problems({ PHOTO_BASE_URL: 'https://photos.example.edu' })).toEqual([
      'S3_BUCKET: must be set when PHOTO_BASE_URL is (photos are on disk without it)',
    ]);
  });

  it("names PHOTO_BASE_URL's origin and the bucket's signing origin for the CSP", async () => {
    const origins = async (env: Record<string, string>) => {
      const storage = await new BucketStorage(loadConfig({ ...BASE, ...env }).bucket!, () => 'msu').init();
      storage.close();
      return storage.imageOrigins;
    };
    // A custom endpoint is addressed path-style: its own origin signs.
    expect(await origins(BUCKET)).toEqual(['https://photos.example.edu', 'http://127.0.0.1:9000']);
    // AWS: the bucket's virtual host in its region.
    expect(
      await origins({ ...BUCKET, S3_ENDPOINT: '', PHOTO_BASE_URL: 'https://cdn.example.edu/market' }),
    ).toEqual(['https://cdn.example.edu', 'https://campus-photos.s3.eu-west-1.amazonaws.com']);
  });
});
