/**
 * The code each plugin worker thread runs (spec 3.3, isolation). It is kept as source text and
 * started with `new Worker(code, { eval: true })` so it works the same from the bundled
 * extension, the bundled CLI and the TypeScript sources under test. It only loads the plugin,
 * calls the requested function and posts back plain data; validation happens in the caller.
 *
 * Messages in:  { type: 'call', id, fn, args, usageTiers? }
 * Messages out: { type: 'ready', name, slot, functions } | { type: 'load_error', message }
 *               { type: 'result', id, ok: true, value } | { type: 'result', id, ok: false, kind, message }
 */
export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const { createRequire } = require('node:module');
const path = require('node:path');

function describe(e) {
  if (e && typeof e === 'object' && 'message' in e) return String(e.message);
  try { return JSON.stringify(e); } catch { return String(e); }
}

async function loadModule() {
  if (typeof workerData.code === 'string') {
    const m = { exports: {} };
    const req = createRequire(workerData.file);
    new Function('module', 'exports', 'require', '__filename', '__dirname', workerData.code)(
      m, m.exports, req, workerData.file, path.dirname(workerData.file));
    return m.exports;
  }
  return import(pathToFileURL(workerData.file).href + '?v=' + workerData.version);
}

function pickPlugin(mod) {
  if (mod && typeof mod.name === 'function' && typeof mod.slot === 'function') return mod;
  const d = mod && mod.default;
  if (d && typeof d === 'object' && typeof d.name === 'function') return d;
  if (typeof d === 'function' && typeof d.name === 'function') return d;
  return mod;
}

function usageContext(tiers) {
  return { usageTier: (project) => (tiers && tiers[project == null ? '' : project]) || 'normal' };
}

let plugin;
(async () => {
  try {
    plugin = pickPlugin(await loadModule());
    if (!plugin || typeof plugin.name !== 'function' || typeof plugin.slot !== 'function') {
      parentPort.postMessage({ type: 'load_error', message: 'does not export name() and slot()' });
      return;
    }
    const name = await plugin.name();
    const slot = await plugin.slot();
    const functions = [];
    for (const key of Object.keys(plugin).concat(Object.getOwnPropertyNames(Object.getPrototypeOf(plugin) || {}))) {
      if (typeof plugin[key] === 'function' && !functions.includes(key)) functions.push(key);
    }
    parentPort.postMessage({ type: 'ready', name: String(name), slot: String(slot), functions });
  } catch (e) {
    parentPort.postMessage({ type: 'load_error', message: describe(e) });
  }
})();

parentPort.on('message', async (msg) => {
  if (!msg || msg.type !== 'call') return;
  const { id, fn, args } = msg;
  try {
    if (!plugin || typeof plugin[fn] !== 'function') throw new Error('plugin has no function ' + fn + '()');
    const callArgs = args.slice();
    if (msg.usageTiers) callArgs.push(usageContext(msg.usageTiers));
    const value = await plugin[fn](...callArgs);
    let size = 0;
    try { size = value === undefined ? 0 : JSON.stringify(value).length; } catch (e) {
      parentPort.postMessage({ type: 'result', id, ok: false, kind: 'malformed', message: 'result is not plain data: ' + describe(e) });
      return;
    }
    if (size > workerData.maxResultBytes) {
      parentPort.postMessage({ type: 'result', id, ok: false, kind: 'malformed',
        message: 'result is ' + size + ' bytes, over the ' + workerData.maxResultBytes + '-byte limit' });
      return;
    }
    try {
      parentPort.postMessage({ type: 'result', id, ok: true, value });
    } catch (e) {
      parentPort.postMessage({ type: 'result', id, ok: false, kind: 'malformed', message: 'result cannot be sent: ' + describe(e) });
    }
  } catch (e) {
    try {
      parentPort.postMessage({ type: 'result', id, ok: false, kind: 'error', message: describe(e) });
    } catch {
      parentPort.postMessage({ type: 'result', id, ok: false, kind: 'error', message: 'threw a value that cannot be reported' });
    }
  }
});
`;
