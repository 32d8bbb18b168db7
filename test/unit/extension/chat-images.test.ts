import assert from 'node:assert/strict';
import { imagesFromWebview } from '../../../src/extension/chat/panel-images.js';
import { historyItems } from '../../../src/extension/chat/history-items.js';
import { imageFromBytes } from '../../../src/core/images.js';
import { parseWebviewMessage } from '../../../src/protocol/messages.js';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('chat: pictures from the webview are checked by the host', () => {
  it('types them from their bytes; a name or a claim from the page changes nothing', () => {
    const [image] = imagesFromWebview([{ name: 'error.jpg', data: PNG_BASE64 }]);
    assert.equal(image!.media_type, 'image/png');
    assert.equal(image!.name, 'error.jpg');
    assert.equal(imagesFromWebview([{ data: PNG_BASE64 }])[0]!.name, 'pasted image 1');
  });

  it('refuses what is not a picture, broken base64 and too many', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString('base64');
    assert.throws(() => imagesFromWebview([{ name: 'x.png', data: svg }]), /Not sent: x\.png: not a PNG, JPEG, GIF or WebP image/);
    assert.throws(() => imagesFromWebview([{ name: 'x.png', data: 'not base64!' }]), /not base64/);
    assert.throws(() => imagesFromWebview(Array.from({ length: 9 }, () => ({ data: PNG_BASE64 }))), /at most 8/);
    // The protocol caps the message before the host looks at it.
    assert.equal(parseWebviewMessage({ type: 'send', text: 'x', images: Array.from({ length: 9 }, () => ({ data: PNG_BASE64 })) }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'send', text: 'x', images: [{ data: 'A'.repeat(7_000_000 + 4) }] }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'send', text: 'x', images: [{ name: 'a.png', data: PNG_BASE64 }] }).ok, true);
  });

  it('a reopened conversation names the pictures it sent', () => {
    const items = historyItems('a', [{ role: 'user', content: 'look', images: [imageFromBytes(Buffer.from(PNG_BASE64, 'base64'), 'shot.png')] }, { role: 'assistant', content: 'a dot' }]);
    assert.deepEqual(items[0], { kind: 'user', text: 'look', images: [{ label: 'shot.png' }] });
  });
});
