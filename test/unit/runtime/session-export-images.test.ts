import assert from 'node:assert/strict';
import { imageFromBytes } from '../../../src/core/images.js';
import { sessionMarkdown } from '../../../src/core/runtime/session-export.js';
import { estimateTokens } from '../../../src/core/runtime/compaction.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const info = { id: 's1', agent: 'a', title: 'look', createdAt: '2026-12-01T10:00:00Z', updatedAt: '2026-12-01T10:01:00Z', messages: 2 } as never;

describe('pictures in an exported session and in the context estimate', () => {
  it('the export names a picture (escaped), never embeds its bytes', () => {
    const image = imageFromBytes(PNG, '[x](javascript:alert(1))*.png');
    const md = sessionMarkdown(info, [{ role: 'user', content: 'what is this?', images: [image] }, { role: 'assistant', content: 'a dot' }]);
    assert.ok(md.includes('## You\n\nwhat is this?\n\n*[image: \\[x\\](javascript:alert(1))\\*.png, image/png, 1 KB]*'), md);
    assert.ok(!md.includes(image.data));
  });

  it('a picture counts in the token estimate, its base64 does not count as text', () => {
    const text = estimateTokens([{ role: 'user', content: 'x' }]);
    const withImage = estimateTokens([{ role: 'user', content: 'x', images: [imageFromBytes(PNG)] }]);
    assert.equal(withImage - text, 1600);
  });
});
