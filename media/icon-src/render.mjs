// Renders icon.svg to ../icon.png (128×128, the Marketplace icon) with Chromium through
// playwright-core: `node media/icon-src/render.mjs [path to chromium]`. Not shipped in the .vsix.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const here = import.meta.dirname;
const svg = readFileSync(join(here, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.argv[2] ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<body style="margin:0"><img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" width="128" height="128" style="display:block"></body>`);
  await page.screenshot({ path: join(here, '..', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
