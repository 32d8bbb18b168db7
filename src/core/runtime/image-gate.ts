import { describeImage, type ImagePart } from '../images.js';
import type { Message } from '../messages.js';
import type { ModelProvider } from '../models/provider.js';

/**
 * Pictures and a model that cannot take them (issue 25). The person's newest message carrying a
 * picture is refused for such a model before any request is sent (the chain may go on to one that
 * can); pictures from earlier turns are replaced by a line naming them, so a conversation can go on
 * with a text-only model without resending them.
 */
export type ImageGate = { refusal: string } | { refusal: null; messages: Message[] };

export function imageGate(provider: Pick<ModelProvider, 'id' | 'acceptsImages'>, messages: Message[]): ImageGate {
  if (provider.acceptsImages === true || !messages.some(hasImages)) return { refusal: null, messages };
  let last: Message | undefined;
  for (let i = messages.length - 1; i >= 0 && !last; i--) if (messages[i]!.role === 'user') last = messages[i];
  if (last && hasImages(last)) {
    return {
      refusal: `model "${provider.id}" does not take images: send the message without the picture, or use a model whose entry in "models" says "images": true`,
    };
  }
  return { refusal: null, messages: messages.map((m) => (hasImages(m) ? textOnly(m) : m)) };
}

export function hasImages(m: Message): boolean {
  return m.role === 'user' && !!m.images?.length;
}

function textOnly(m: Message): Message {
  if (m.role !== 'user' || !m.images?.length) return m;
  const { images, ...rest } = m;
  const notes = images.map((i) => `[an image was here (${describeImage(i)}); this model does not take images]`);
  return { ...rest, content: [m.content, ...notes].filter(Boolean).join('\n') };
}

/** The messages with `images` added to the last user message (an agent core's composed prompt). */
export function withImagesOnLastUser(messages: Message[], images: readonly ImagePart[]): Message[] {
  if (!images.length) return messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    const out = [...messages];
    out[i] = { ...m, images: [...(m.images ?? []), ...images] };
    return out;
  }
  return messages;
}
