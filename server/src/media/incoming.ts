import { randomUUID } from 'node:crypto';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { LIMITS, MESSAGES } from '@campus/contract';
import { badRequest } from '../http/errors.js';
import { hasJpegMagic, tooLarge } from './image.js';

/**
 * An uploaded file as it arrived, on disk rather than in memory: an 8-photo form holds a few
 * kilobytes of buffers however large its photos are. Never served (outside the uploads folder);
 * the caller discards it once the photo is processed, and the orphan sweep removes what a crashed
 * process left.
 */
export interface IncomingFile {
  path: string;
  size: number;
}

/** DATA_DIR/uploads-incoming: files being received, beside (not inside) the served folder. */
export function incomingDir(dataDir: string): string {
  return path.join(dataDir, 'uploads-incoming');
}

/** Names of received files: `<uuid>.part`. */
export const INCOMING_NAME = /^[0-9a-f-]{36}\.part$/;

/** The first bytes that decide whether a file is a JPEG at all (hasJpegMagic). */
const MAGIC_LENGTH = 3;

/**
 * Streams one file part to DATA_DIR/uploads-incoming, checking as it arrives: the first bytes
 * must be a JPEG's (400 before the rest is read), the whole at most `maxBytes` (413 as soon as it
 * is passed). An empty part (a form's untouched file input) is no file: null. On any refusal the
 * partial file is removed and the stream is abandoned.
 */
export async function receiveFile(
  dataDir: string,
  stream: Readable,
  maxBytes: number = LIMITS.imageMaxBytes,
): Promise<IncomingFile | null> {
  const dir = incomingDir(dataDir);
  const file = path.join(dir, `${randomUUID()}.part`);
  let handle: FileHandle | undefined;
  let head: Buffer = Buffer.alloc(0);
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += buf.length;
      if (total > maxBytes) throw tooLarge();
      if (handle) {
        await handle.write(buf);
        continue;
      }
      head = Buffer.concat([head, buf]);
      if (head.length < MAGIC_LENGTH) continue;
      if (!hasJpegMagic(head)) throw badRequest(MESSAGES.imageNotJpeg);
      await mkdir(dir, { recursive: true });
      handle = await open(file, 'wx');
      await handle.write(head);
    }
    // @fastify/multipart cuts a file at its fileSize limit and flags the stream as truncated.
    if ((stream as Readable & { truncated?: boolean }).truncated) throw tooLarge();
    if (total === 0) return null;
    if (!handle) throw badRequest(MESSAGES.imageNotJpeg);
    await handle.close();
    handle = undefined;
    return { path: file, size: total };
  } catch (err) {
    stream.destroy();
    await handle?.close().catch(() => undefined);
    handle = undefined;
    await rm(file, { force: true });
    throw err;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Removes received files (processed or refused). Never throws. */
export async function discardIncoming(files: ReadonlyArray<IncomingFile | null | undefined>): Promise<void> {
  await Promise.all(
    files.map((f) => (f ? rm(f.path, { force: true }).catch(() => undefined) : Promise.resolve())),
  );
}
