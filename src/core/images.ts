import * as z from './zod.js';

/**
 * Pictures in a user's message (issue 25): a screenshot of an error, a mock-up. A trust boundary:
 * the bytes come from a webview's paste, a file named on the command line or a stored session, so
 * every part is checked here. The media type is read from the bytes' signature, never from a file
 * name or a sender's claim; a part whose declared type disagrees with its bytes is refused.
 */

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** Per picture: Anthropic's own limit for one image, and well under OpenAI's. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Per message. */
export const MAX_IMAGES = 8;
/** A rough token figure per picture, for the context estimate (providers count 85–1600 per image). */
export const IMAGE_TOKEN_ESTIMATE = 1600;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const maxBase64Chars = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

/** The media type a picture's first bytes say it is, or undefined for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const starts = (sig: number[], at = 0) => bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || starts([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/** The decoded size of canonical base64 text, without decoding it. */
function base64Bytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - pad;
}

export const ImagePart = z
  .strictObject({
    type: z.literal('image'),
    media_type: z.enum(IMAGE_MEDIA_TYPES),
    /** The picture's bytes, base64 (canonical: a multiple of 4 characters, no line breaks). */
    data: z.string().check(z.minLength(4), z.maxLength(maxBase64Chars)),
    /** What the person sees on the thumbnail (a file name, "pasted image"); never used to type it. */
    name: z.optional(z.string().check(z.maxLength(200))),
  })
  .check(
    z.superRefine((part, ctx) => {
      if (part.data.length % 4 !== 0 || !BASE64.test(part.data)) {
        ctx.addIssue({ code: 'custom', message: 'image data must be base64' });
        return;
      }
      if (base64Bytes(part.data) > MAX_IMAGE_BYTES) {
        ctx.addIssue({ code: 'custom', message: `an image may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB` });
        return;
      }
      const head = Buffer.from(part.data.slice(0, 24), 'base64');
      const sniffed = sniffImageType(head);
      if (!sniffed) ctx.addIssue({ code: 'custom', message: 'not a PNG, JPEG, GIF or WebP image' });
      else if (sniffed !== part.media_type) ctx.addIssue({ code: 'custom', message: `the bytes are ${sniffed}, not ${part.media_type}` });
    }),
  );
export type ImagePart = z.infer<typeof ImagePart>;
export const ImageParts = z.array(ImagePart).check(z.maxLength(MAX_IMAGES));

/** A picture from raw bytes (a file, a paste): typed by its signature, refused when too big or not an image. */
export function imageFromBytes(bytes: Uint8Array, name?: string): ImagePart {
  const label = name ? `${name}: ` : '';
  if (bytes.length > MAX_IMAGE_BYTES) throw new Error(`${label}the image is ${bytes.length} bytes; at most ${MAX_IMAGE_BYTES} (5 MB) are sent`);
  const mediaType = sniffImageType(bytes);
  if (!mediaType) throw new Error(`${label}not a PNG, JPEG, GIF or WebP image (judged by its content, not its name)`);
  return ImagePart.parse({ type: 'image', media_type: mediaType, data: Buffer.from(bytes).toString('base64'), ...(name ? { name: name.slice(0, 200) } : {}) });
}

/** Checks pictures that crossed a boundary (a webview message, a protocol call); throws a readable error. */
export function parseImages(value: unknown): ImagePart[] {
  const r = ImageParts.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new Error(`images: ${issue?.message ?? 'invalid'}${issue?.path.length ? ` (at ${issue.path.join('.')})` : ''}`);
}

/** "image/png, 12 KB": how a picture is named in text (a transcript, an export, a model without eyes). */
export function describeImage(part: Pick<ImagePart, 'media_type' | 'data' | 'name'>): string {
  const kb = Math.max(1, Math.round(base64Bytes(part.data) / 1024));
  return `${part.name ? `${part.name}, ` : ''}${part.media_type}, ${kb} KB`;
}
