import { imageFromBytes, MAX_IMAGES, type ImagePart } from '../../core/images.js';

/**
 * Pictures from the chat webview (issue 25) → checked image parts. The page is not trusted: its
 * bytes are decoded here and typed from their signature (core/images.ts); a name is only a label.
 * Throws a sentence the chat shows when one is not a picture or is too big.
 */
export function imagesFromWebview(sent: readonly { name?: string | undefined; data: string }[] | undefined): ImagePart[] {
  if (!sent?.length) return [];
  if (sent.length > MAX_IMAGES) throw new Error(`Not sent: at most ${MAX_IMAGES} pictures a message.`);
  return sent.map((s, i) => {
    const name = s.name?.trim() || `pasted image ${i + 1}`;
    if (s.data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s.data)) throw new Error(`Not sent: ${name} is not base64 data.`);
    try {
      return imageFromBytes(Buffer.from(s.data, 'base64'), name);
    } catch (e) {
      throw new Error(`Not sent: ${(e as Error).message}.`);
    }
  });
}
