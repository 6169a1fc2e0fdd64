import { urlForKey } from '../media/index.js';

/** URL of a stored listing thumbnail. */
export function thumbnailUrl(key: string | null): string | null {
  return key ? urlForKey(key) : null;
}
