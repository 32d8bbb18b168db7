import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { UsageError } from '../core/errors.js';
import { MAX_IMAGE_BYTES, MAX_IMAGES, imageFromBytes, type ImagePart } from '../core/images.js';

/**
 * `pepe run --image FILE`: a picture from a file the person named. Opened without blocking and
 * checked to be a regular file (a FIFO or a device would hang or never end), its size read before
 * its bytes, its type from its content.
 */
export async function readImageFile(path: string): Promise<ImagePart> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new UsageError(`--image ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UsageError(`--image ${path}: not a regular file`);
    if (info.size > MAX_IMAGE_BYTES) throw new UsageError(`--image ${path}: the image is ${info.size} bytes; at most ${MAX_IMAGE_BYTES} (5 MB) are sent`);
    // One byte more than the cap, so a file that grew after the stat is still caught.
    const buf = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got >= buf.length) break;
    }
    try {
      return imageFromBytes(buf.subarray(0, got), basename(path));
    } catch (e) {
      throw new UsageError(`--image ${path}: ${(e as Error).message.replace(/^[^:]*: /, '')}`);
    }
  } finally {
    await handle.close();
  }
}

export async function readImageFiles(paths: readonly string[]): Promise<ImagePart[]> {
  if (paths.length > MAX_IMAGES) throw new UsageError(`--image: at most ${MAX_IMAGES} images a message`);
  const out: ImagePart[] = [];
  for (const p of paths) out.push(await readImageFile(p));
  return out;
}
