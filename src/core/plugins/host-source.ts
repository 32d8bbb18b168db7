import { CHILD_CHANNEL_SOURCE } from './child-channel-source.js';

/**
 * The program a plugin host process runs (spec 3.3, isolation): `node -e HOST_SOURCE`. It is kept
 * as source text so it works the same from the bundled extension, the bundled CLI and the
 * TypeScript sources under test (there is no script file to point node at in a bundle).
 *
 * It talks to the host over file descriptor 3 in length-prefixed JSON frames (framing.ts);
 * stdout and stderr are left to the plugin's console, which the host captures and caps. It loads
 * the plugin, calls the requested function and sends back plain data; validation happens in the
 * host. When the host goes away (the channel closes) the process ends.
 *
 * In:  { type: 'init', file, code?, version, maxResultBytes }
 *      { type: 'call', id, fn, args, usageTiers?, harness? }   harness: args get an opts object
 *      { type: 'abort', id }                                   aborts that harness call's signal
 *      { type: 'rpc_result', id, rpcId, ok, value | message }  answers a harness's request
 * Out: { type: 'ready', name, slot, functions } | { type: 'load_error', message }
 *      { type: 'result', id, ok: true, value } | { type: 'result', id, ok: false, kind, message }
 *      { type: 'event', id, event }                            a harness's opts.onEvent(event), or its
 *        request { type: 'rpc', rpcId, path: 'tools.call' | 'model.complete', args } to the turn
 */
export const HOST_SOURCE = String.raw`
'use strict';
const net = require('node:net');
const { pathToFileURL } = require('node:url');
const { createRequire } = require('node:module');
const path = require('node:path');

let init = null;
let plugin = null;
const aborts = new Map();
const rpcs = new Map();
let nextRpc = 1;

// A result is sized once, as the text actually sent.
function sendResult(id, value) {
  let text;
  try {
    // A function that returns nothing (memory's index()) answers null: JSON drops an undefined value.
    text = JSON.stringify({ type: 'result', id, ok: true, value: value === undefined ? null : value });
  } catch (e) {
    return send({ type: 'result', id, ok: false, kind: 'malformed', message: 'result is not plain data: ' + describe(e) });
  }
  const size = Buffer.byteLength(text, 'utf8');
  if (size > init.maxResultBytes) {
    return send({ type: 'result', id, ok: false, kind: 'malformed',
      message: 'result is ' + size + ' bytes, over the ' + init.maxResultBytes + '-byte limit' });
  }
  channel.write(frame(text));
}

async function loadModule() {
  if (typeof init.code === 'string') {
    const m = { exports: {} };
    const req = createRequire(init.file);
    new Function('module', 'exports', 'require', '__filename', '__dirname', init.code)(
      m, m.exports, req, init.file, path.dirname(init.file));
    return m.exports;
  }
  return import(pathToFileURL(init.file).href + '?v=' + encodeURIComponent(init.version));
}

function pickPlugin(mod) {
  if (mod && typeof mod.name === 'function' && typeof mod.slot === 'function') return mod;
  const d = mod && mod.default;
  if (d && (typeof d === 'object' || typeof d === 'function') && typeof d.name === 'function') return d;
  return mod;
}

async function load() {
  try {
    plugin = pickPlugin(await loadModule());
    if (!plugin || typeof plugin.name !== 'function' || typeof plugin.slot !== 'function') {
      send({ type: 'load_error', message: 'does not export name() and slot()' });
      return;
    }
    const name = await plugin.name();
    const slot = await plugin.slot();
    const functions = [];
    for (const key of Object.keys(plugin).concat(Object.getOwnPropertyNames(Object.getPrototypeOf(plugin) || {}))) {
      if (typeof plugin[key] === 'function' && !functions.includes(key)) functions.push(key);
    }
    send({ type: 'ready', name: String(name), slot: String(slot), functions });
  } catch (e) {
    send({ type: 'load_error', message: describe(e) });
  }
}

async function call(msg) {
  const { id, fn } = msg;
  try {
    if (!plugin || typeof plugin[fn] !== 'function') throw new Error('plugin has no function ' + fn + '()');
    const args = Array.isArray(msg.args) ? msg.args.slice() : [];
    if (msg.usageTiers) {
      const tiers = msg.usageTiers;
      args.push({ usageTier: (project) => tiers[project == null ? '' : project] || 'normal' });
    }
    if (msg.harness) {
      const ac = new AbortController();
      aborts.set(id, ac);
      // Requests to the turn: answered by an rpc_result message (or refused when the turn offers none).
      const rpc = (path, args) => new Promise((resolve, reject) => {
        const rpcId = nextRpc++;
        rpcs.set(rpcId, { resolve, reject });
        send({ type: 'event', id, event: { type: 'rpc', rpcId, path, args } });
      });
      args.push({
        signal: ac.signal,
        onEvent: (event) => {
          try { send({ type: 'event', id, event }); } catch { /* an event that is not plain data is dropped */ }
        },
        tools: { call: (name, toolArgs) => rpc('tools.call', [name, toolArgs === undefined ? {} : toolArgs]) },
        model: { complete: (messages) => rpc('model.complete', [messages]) },
      });
    }
    const value = await plugin[fn](...args);
    sendResult(id, value);
  } catch (e) {
    send({ type: 'result', id, ok: false, kind: 'error', message: describe(e) });
  } finally {
    aborts.delete(id);
  }
}

function onMessage(msg) {
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'init' && !init) { init = msg; load(); }
  else if (msg.type === 'call') call(msg);
  else if (msg.type === 'abort') { const ac = aborts.get(msg.id); if (ac) ac.abort(new Error('cancelled')); }
  else if (msg.type === 'rpc_result') {
    const p = rpcs.get(msg.rpcId);
    if (!p) return;
    rpcs.delete(msg.rpcId);
    if (msg.ok) p.resolve(msg.value); else p.reject(new Error(String(msg.message)));
  }
}

${CHILD_CHANNEL_SOURCE}`;
