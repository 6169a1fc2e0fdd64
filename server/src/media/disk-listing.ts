import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StoredFile } from './photo-storage.js';
import { isServedName, ownerKeyOf } from './storage.js';

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * One page of a folder's stored images for the orphan sweep: the first `limit` names after
 * `after` in name order, with their modification times. The folder is streamed (opendir), never
 * read whole: at most about twice `limit` names are held at once, however many files it has. A
 * folder that does not exist yet holds nothing.
 */
export async function listFolder(
  dir: string,
  after: string,
  limit: number,
): Promise<{ files: StoredFile[]; next: string | null }> {
  let names: string[] = [];
  // Once `limit + 1` names are held, a name past the largest of them cannot be on this page.
  let bound: string | undefined;
  try {
    for await (const entry of await opendir(dir)) {
      const name = entry.name;
      if (!entry.isFile() || name <= after || !isServedName(name)) continue;
      if (bound !== undefined && name >= bound) continue;
      names.push(name);
      if (names.length > 2 * (limit + 1)) {
        names = names.sort().slice(0, limit + 1);
        bound = names[limit];
      }
    }
  } catch (err) {
    if (missing(err)) return { files: [], next: null };
    throw err;
  }
  names.sort();
  const page = names.slice(0, limit);
  const files: StoredFile[] = [];
  for (const name of page) {
    try {
      const { mtimeMs } = await stat(path.join(dir, name));
      files.push({ ref: name, key: ownerKeyOf(name)!, modifiedAt: mtimeMs });
    } catch (err) {
      // Removed since it was listed (a deletion, a variant's take-back): nothing to sweep.
      if (!missing(err)) throw err;
    }
  }
  return { files, next: names.length > limit ? page[page.length - 1]! : null };
}

/** Removes files of the folder by name; names it does not store are refused, missing ones fine. */
export async function removeFromFolder(dir: string, names: readonly string[]): Promise<void> {
  const foreign = names.find((n) => !isServedName(n));
  if (foreign !== undefined) throw new Error(`not a stored image name: ${foreign}`);
  for (const name of names) await rm(path.join(dir, name), { force: true });
}

/**
 * Files a crashed process left in a working folder (DATA_DIR/uploads-incoming's `.part` files, the
 * variants' temporary folder DATA_DIR/uploads.tmp): those whose name `matches` and that were last
 * written before `before`. A file still being written keeps a fresh modification time. Answers
 * how many went; never throws (a folder that cannot be read is left for the next time).
 */
export async function removeStaleFiles(
  dir: string,
  matches: (name: string) => boolean,
  before: number,
): Promise<number> {
  let removed = 0;
  try {
    for await (const entry of await opendir(dir)) {
      if (!entry.isFile() || !matches(entry.name)) continue;
      const file = path.join(dir, entry.name);
      try {
        if ((await stat(file)).mtimeMs >= before) continue;
        await rm(file, { force: true });
        removed += 1;
      } catch {
        // Gone meanwhile (its upload finished), or not ours to remove: the next sweep looks again.
      }
    }
  } catch {
    // No such folder yet, or unreadable: nothing to do now.
  }
  return removed;
}
