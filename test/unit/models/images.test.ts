import assert from 'node:assert/strict';
import type { PepeConfig } from '../../../src/core/config/schema.js';
import { ImagePart, MAX_IMAGE_BYTES, MAX_IMAGES, imageFromBytes, parseImages, sniffImageType } from '../../../src/core/images.js';
import { Message } from '../../../src/core/messages.js';
import { createProvider } from '../../../src/core/models/factory.js';
import { collect } from '../../../src/core/models/provider.js';
import { callModel, type ModelCallDeps } from '../../../src/core/runtime/model-call.js';
import { fixture, sse, startServer, type TestServer } from './sse-server.js';

/** A real 1×1 PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_BASE64, 'base64');
const GIF = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const picture = (): ImagePart => imageFromBytes(PNG, 'shot.png');
const withPicture = (text = 'what is wrong here?'): Message[] => [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: text, images: [picture()] },
];

const fakeUsage = { record() {}, tier: () => 'normal' } as unknown as ModelCallDeps['usage'];
function deps(config: PepeConfig): ModelCallDeps {
  return { config, env: { TEST_KEY: 'sk-test-0123456789' }, usage: fakeUsage, agent: 'a', project: null, providerOptions: { retry: { baseDelayMs: 1, maxRetries: 0 } } };
}

describe('pictures: the image part (zod, size cap, type from the bytes)', () => {
  it('types a picture by its signature, never by its name', () => {
    assert.equal(sniffImageType(PNG), 'image/png');
    assert.equal(sniffImageType(GIF), 'image/gif');
    assert.equal(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
    assert.equal(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1')), 'image/webp');
    assert.equal(imageFromBytes(GIF, 'looks-like.png').media_type, 'image/gif');
    assert.throws(() => imageFromBytes(Buffer.from('<svg onload="alert(1)"/>'), 'x.png'), /not a PNG, JPEG, GIF or WebP image/);
    assert.throws(() => imageFromBytes(Buffer.from('#!/bin/sh\nrm -rf ~\n'), 'x.jpg'), /not a PNG/);
  });

  it('refuses a declared type the bytes contradict, bad base64, an oversized picture and too many', () => {
    assert.throws(() => parseImages([{ type: 'image', media_type: 'image/jpeg', data: PNG_BASE64 }]), /the bytes are image\/png, not image\/jpeg/);
    assert.throws(() => parseImages([{ type: 'image', media_type: 'image/svg+xml', data: PNG_BASE64 }]), /images:/);
    assert.throws(() => parseImages([{ type: 'image', media_type: 'image/png', data: `${PNG_BASE64.slice(0, 20)}!!!!` }]), /base64/);
    assert.throws(() => parseImages([{ type: 'image', media_type: 'image/png', data: PNG_BASE64, url: 'http://x' }]), /images:/);
    const big = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    PNG.copy(big);
    assert.throws(() => imageFromBytes(big), /at most 5242880/);
    assert.throws(() => parseImages([{ type: 'image', media_type: 'image/png', data: big.toString('base64') }]), /images:/);
    assert.throws(() => parseImages(Array.from({ length: MAX_IMAGES + 1 }, picture)), /images:/);
    assert.equal(parseImages([picture()]).length, 1);
    // A stored session is checked the same way.
    assert.equal(Message.safeParse({ role: 'user', content: 'x', images: [{ type: 'image', media_type: 'image/png', data: GIF.toString('base64') }] }).success, false);
  });
});

describe('pictures: each protocol carries them in its own wire format (local servers)', () => {
  it('OpenAI-compatible: an image_url part with a data URL after the text', async () => {
    server = await startServer([sse([fixture('openai-text.sse')])]);
    const config: PepeConfig = { models: { eyes: { provider: 'openai-compatible', model: 'gpt-4o', base_url: server.baseUrl, api_key_env: 'TEST_KEY', images: true } } };
    const p = createProvider('eyes', config, { TEST_KEY: 'sk-test' });
    assert.equal(p.acceptsImages, true);
    await collect(p.stream({ messages: withPicture(), tools: [] }));
    const user = server.requests[0]!.body.messages.find((m: any) => m.role === 'user');
    assert.deepEqual(user.content, [
      { type: 'text', text: 'what is wrong here?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
    ]);
  });

  it('Anthropic: a base64 image block after the text', async () => {
    server = await startServer([sse([fixture('anthropic-text.sse')])]);
    const config: PepeConfig = { models: { claude: { provider: 'anthropic', model: 'claude-sonnet-4-5', base_url: server.baseUrl, api_key_env: 'TEST_KEY', max_output_tokens: 64, images: true } } };
    await collect(createProvider('claude', config, { TEST_KEY: 'sk-ant-test' }).stream({ messages: withPicture(), tools: [] }));
    const body = server.requests[0]!.body;
    assert.equal(body.system[0].text, 'You are terse.');
    assert.deepEqual(body.messages[0].content, [
      { type: 'text', text: 'what is wrong here?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
    ]);
  });
});

describe('pictures: a model that does not take them', () => {
  const noop = () => {};

  it('refuses before any request is sent, with a message that says why', async () => {
    server = await startServer([sse([fixture('openai-text.sse')])]);
    const config: PepeConfig = { models: { blind: { provider: 'openai-compatible', model: 'llama', base_url: server.baseUrl, api_key_env: 'TEST_KEY' } } };
    const fallbacks: string[] = [];
    await assert.rejects(
      callModel([{ id: 'blind' }], { messages: withPicture(), tools: [] }, deps(config), new AbortController().signal, noop, (_f, _t, e) => fallbacks.push(e)),
      /model "blind" does not take images.*"images": true/,
    );
    assert.equal(server.requests.length, 0, 'nothing reached the server');
    assert.match(fallbacks[0]!, /does not take images/);
  });

  it('the chain goes on to a model that takes them; text-only models get earlier pictures as a note', async () => {
    server = await startServer(() => sse([fixture('openai-text.sse')]));
    const config: PepeConfig = {
      models: {
        blind: { provider: 'openai-compatible', model: 'llama', base_url: server.baseUrl, api_key_env: 'TEST_KEY' },
        eyes: { provider: 'openai-compatible', model: 'gpt-4o', base_url: server.baseUrl, api_key_env: 'TEST_KEY', images: true },
      },
    };
    const signal = new AbortController().signal;
    const answer = await callModel([{ id: 'blind' }, { id: 'eyes' }], { messages: withPicture(), tools: [] }, deps(config), signal, noop, noop);
    assert.equal(answer.model, 'eyes');
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.body.model, 'gpt-4o');

    // A later text-only turn: the old picture is named, not sent.
    const later: Message[] = [...withPicture(), { role: 'assistant', content: 'a typo' }, { role: 'user', content: 'fix it' }];
    await callModel([{ id: 'blind' }], { messages: later, tools: [] }, deps(config), signal, noop, noop);
    const sent = server.requests[1]!.body.messages;
    assert.equal(sent[1].content, 'what is wrong here?\n[an image was here (shot.png, image/png, 1 KB); this model does not take images]');
    assert.ok(!JSON.stringify(sent).includes(PNG_BASE64));
  });
});
