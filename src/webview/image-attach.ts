/// <reference lib="dom" />
import { h, icon } from './dom.js';

/**
 * Pictures for the next message (issue 25): pasted into the input or dropped on the chat, shown
 * as thumbnails with a remove button, sent with the message. The page checks only what it can
 * show (a picture's signature, its size, how many); the host checks the bytes again and is the
 * one that decides (core/images.ts).
 */

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES = 8;

export interface PendingImage {
  id: number;
  name: string;
  /** Base64 of the bytes. */
  data: string;
  mediaType: string;
}

/** The type a picture's first bytes say it is (the same signatures as the core's sniffer). */
export function sniffImage(b: Uint8Array): string | undefined {
  const at = (sig: number[], off = 0) => b.length >= off + sig.length && sig.every((x, i) => b[off + i] === x);
  if (at([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at([0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || at([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])) return 'image/gif';
  if (at([0x52, 0x49, 0x46, 0x46]) && at([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(out);
}

/** The files of a paste or a drop that say they are pictures (the bytes decide later). */
function imageFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = Array.from(data.files);
  for (const item of Array.from(data.items ?? [])) {
    if (item.kind !== 'file') continue;
    const f = item.getAsFile();
    if (f && !files.some((x) => x.name === f.name && x.size === f.size && x.lastModified === f.lastModified)) files.push(f);
  }
  return files.filter((f) => f.type.startsWith('image/'));
}

export class ImageAttach {
  private readonly el: HTMLElement;
  private pending: PendingImage[] = [];
  private next = 1;
  private note: string | null = null;

  constructor(input: HTMLTextAreaElement, composer: HTMLElement) {
    this.el = h('ul', { class: 'images', 'aria-label': 'Pictures to send', hidden: true });
    composer.prepend(this.el);
    input.addEventListener('paste', (e) => {
      const files = imageFiles(e.clipboardData);
      if (!files.length) return;
      e.preventDefault();
      void this.add(files);
    });
    // Capture phase: a dropped picture is taken here, before the context drop (which would try to
    // attach it as a text file).
    document.addEventListener(
      'drop',
      (e) => {
        const files = imageFiles(e.dataTransfer);
        if (!files.length) return;
        e.preventDefault();
        e.stopImmediatePropagation();
        document.body.classList.remove('dropping');
        void this.add(files);
      },
      true,
    );
    this.el.addEventListener('click', (e) => {
      const button = (e.target as Element).closest<HTMLElement>('[data-remove-image]');
      if (!button) return;
      this.pending = this.pending.filter((p) => String(p.id) !== button.dataset.removeImage);
      this.note = null;
      this.render();
    });
  }

  /** What goes with the message: names and bytes (the host types them from the bytes). */
  get payload(): { name: string; data: string }[] {
    return this.pending.map((p) => ({ name: p.name, data: p.data }));
  }

  clear(): void {
    this.pending = [];
    this.note = null;
    this.render();
  }

  private async add(files: File[]): Promise<void> {
    const refused: string[] = [];
    for (const f of files) {
      const name = (f.name || 'pasted image').slice(0, 200);
      if (this.pending.length >= MAX_IMAGES) {
        refused.push(`${name}: at most ${MAX_IMAGES} pictures a message`);
        continue;
      }
      if (f.size > MAX_IMAGE_BYTES) {
        refused.push(`${name}: larger than 5 MB`);
        continue;
      }
      const bytes = new Uint8Array(await f.arrayBuffer());
      const mediaType = sniffImage(bytes);
      if (!mediaType) {
        refused.push(`${name}: not a PNG, JPEG, GIF or WebP picture`);
        continue;
      }
      this.pending.push({ id: this.next++, name, data: base64(bytes), mediaType });
    }
    this.note = refused.length ? `Not added: ${refused.join('; ')}` : null;
    this.render();
  }

  private render(): void {
    this.el.hidden = !this.pending.length && !this.note;
    this.el.replaceChildren(
      ...this.pending.map((p) =>
        h(
          'li',
          { class: 'image-chip', title: p.name },
          // A data: URL of a type read from the bytes: the CSP allows data: images and nothing runs from one.
          h('img', { src: `data:${p.mediaType};base64,${p.data}`, alt: p.name }),
          h('button', { type: 'button', class: 'icon-button chip-remove', 'data-remove-image': String(p.id), 'aria-label': `Remove ${p.name}`, title: 'Remove' }, icon('close')),
        ),
      ),
      ...(this.note ? [h('li', { class: 'image-note', role: 'alert' }, this.note)] : []),
    );
  }
}

/** The pictures of a sent message, by name. */
export function sentImages(images: readonly { label: string }[]): HTMLElement {
  return h('ul', { class: 'attachments sent images-sent', 'aria-label': 'Pictures sent' }, ...images.map((i) => h('li', { class: 'chip', 'data-kind': 'image', title: `picture: ${i.label}` }, icon('file-media'), h('span', { class: 'chip-label' }, i.label))));
}
