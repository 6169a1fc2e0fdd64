/**
 * The object-storage settings (features.md §F): S3_BUCKET turns bucket mode on, and then
 * PHOTO_BASE_URL is required; the key pair comes both or neither (neither: the SDK's own chain —
 * instance role, AWS_* variables, shared profile). Checked at start-up so a typo stops the process
 * with a line naming the variable, never a 500 at the first upload.
 */
export interface BucketConfig {
  bucket: string;
  /** S3_ENDPOINT: a non-AWS service (MinIO, Ceph, R2, s3rver); addressed path-style. */
  endpoint: string | undefined;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** PHOTO_BASE_URL without a trailing slash: public images are `{base}/{campus slug}/photos/{key}`. */
  photoBaseUrl: string;
}

/** S3 bucket names: 3–63 of lower-case letters, digits, dots and dashes. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Reads the S3_* and PHOTO_BASE_URL variables: undefined without S3_BUCKET (photos on disk),
 * else the settings; every problem is one line for ConfigError.
 */
export function parseBucketConfig(env: NodeJS.ProcessEnv): { config?: BucketConfig; problems: string[] } {
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const bucket = value('S3_BUCKET');
  const endpoint = value('S3_ENDPOINT');
  const region = value('S3_REGION');
  const accessKeyId = value('S3_ACCESS_KEY_ID');
  const secretAccessKey = value('S3_SECRET_ACCESS_KEY');
  const photoBaseUrl = value('PHOTO_BASE_URL');
  const problems: string[] = [];
  if (!bucket) {
    const stray = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'PHOTO_BASE_URL'].filter(value);
    if (stray.length > 0)
      problems.push(`S3_BUCKET: must be set when ${stray.join(', ')} is (photos are on disk without it)`);
    return { problems };
  }
  if (!BUCKET_NAME.test(bucket))
    problems.push('S3_BUCKET: must be a bucket name (3-63 lower-case letters, digits, dots and dashes)');
  if (endpoint !== undefined && !httpUrl(endpoint))
    problems.push('S3_ENDPOINT: must be an http:// or https:// URL, e.g. https://minio.example.edu:9000');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    problems.push(
      'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither (neither uses the instance role or AWS_* variables)',
    );
  if (photoBaseUrl === undefined)
    problems.push(
      'PHOTO_BASE_URL: must be set with S3_BUCKET: the public address of the bucket or of the CDN in front of it',
    );
  else if (!httpUrl(photoBaseUrl) || /[?#]/.test(photoBaseUrl))
    problems.push(
      'PHOTO_BASE_URL: must be an http:// or https:// URL without ? or #, e.g. https://photos.example.edu',
    );
  if (problems.length > 0) return { problems };
  return {
    problems,
    config: {
      bucket,
      endpoint,
      // Custom endpoints (MinIO, s3rver) ignore the region but the signature needs one.
      region: region ?? 'us-east-1',
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      photoBaseUrl: photoBaseUrl!.replace(/\/+$/, ''),
    },
  };
}
