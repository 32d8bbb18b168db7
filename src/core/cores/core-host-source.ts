import { CHILD_CHANNEL_SOURCE } from '../plugins/child-channel-source.js';

/**
 * The program an agent core's slot modules run in (spec 3.3, 7): `node -e CORE_HOST_SOURCE`, in a
 * child process like a plugin's, speaking the same framing and message types (host-source.ts).
 *
 * The host sends the core's module files already transpiled (`init.files`: absolute path → code);
 * `require` here resolves them with the same rules as the in-process loader (extensions, index
 * files, `x.js` → `x.ts`, relative imports isolated per slot folder plus `agent/lib/`), and bare
 * packages from the importing file's folder.
 *
 * A slot run is `call('runSlot', [slotKey, desc])`. The module gets a ctx that mirrors the SDK:
 * reads (turn, history, state, result, capabilities) answer from `desc`, a snapshot the host took
 * through the real ctx; every change is sent to the host as `{type:'op', path, args}` and applied
 * there, in order, to the real ctx (so its rules and capability checks are the ones that count);
 * `ctx.tools.call`, `ctx.agents.run`, `ctx.skills.activate` and a spawned agent's `wait()` are
 * `{type:'rpc', rpcId, path, args}` answered by `{type:'rpc_result', id, rpcId, ok, value|message}`.
 */
export const CORE_HOST_SOURCE = String.raw`
'use strict';
const net = require('node:net');
const { createRequire, builtinModules } = require('node:module');
const path = require('node:path');

let init = null;
const entries = new Map();
const aborts = new Map();
const rpcs = new Map();
let nextRpc = 1;

// ---- modules: the in-process loader's rules, over the files the host sent ----
const EXTS = ['.ts', '.js', '.mjs', '.cjs', '.json'];
const cache = new Map();
function has(p) { return Object.prototype.hasOwnProperty.call(init.files, p); }
function resolveFile(base) {
  if (has(base) && EXTS.includes(path.extname(base))) return base;
  for (const ext of EXTS) if (has(base + ext)) return base + ext;
  if (/\.(m|c)?js$/.test(base)) { const ts = base.replace(/\.(m|c)?js$/, '.ts'); if (has(ts)) return ts; }
  for (const ext of ['.ts', '.js', '.mjs', '.cjs']) if (has(path.join(base, 'index' + ext))) return path.join(base, 'index' + ext);
  return null;
}
function inside(root, file) {
  const r = path.relative(root, file);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}
function allowedRoots(importer) {
  const lib = path.join(init.surfaceRoot, 'lib');
  if (inside(lib, importer)) return [lib];
  const rel = path.relative(init.surfaceRoot, importer).split(path.sep);
  if (rel.length >= 3 && ['bootstrap', 'input', 'output'].includes(rel[0])) return [path.join(init.surfaceRoot, rel[0], rel[1]), lib];
  return [path.dirname(importer), lib];
}
function requireFrom(importer, spec) {
  if (!spec.startsWith('.') && !spec.startsWith('/')) {
    try { return createRequire(importer)(spec); } catch (e) {
      throw new Error('cannot import "' + spec + '" from ' + path.relative(path.dirname(init.surfaceRoot), importer) + ': ' + describe(e));
    }
  }
  const target = resolveFile(path.resolve(path.dirname(importer), spec));
  if (!target) throw new Error('cannot import "' + spec + '" from ' + importer + ': no such file');
  if (!allowedRoots(importer).some((root) => inside(root, target))) {
    throw new Error(importer + ' may not import "' + spec + '": relative imports are isolated per slot folder; put shared code in agent/lib/');
  }
  return load(target);
}
function load(file) {
  const cached = cache.get(file);
  if (cached) return cached.exports;
  const module = { exports: {} };
  cache.set(file, module);
  try {
    if (path.extname(file) === '.json') module.exports = JSON.parse(init.files[file]);
    else {
      const wrapper = require('node:vm').runInThisContext('(function (exports, require, module, __filename, __dirname) {' + init.files[file] + '\n})', { filename: file });
      wrapper.call(module.exports, module.exports, (spec) => requireFrom(file, spec), module, file, path.dirname(file));
    }
    return module.exports;
  } catch (e) {
    cache.delete(file);
    throw e;
  }
}

// ---- the ctx mirror ----
// The same rules as src/core/cores/capabilities.ts (grants); the host checks again when it applies an operation.
function grantsOne(declared, wanted) {
  if (wanted === 'secret.bind:*') return false;
  if (declared.includes(wanted)) return true;
  const colon = wanted.indexOf(':');
  const family = colon === -1 ? wanted : wanted.slice(0, colon);
  if (colon !== -1 && family !== 'secret.bind' && declared.includes(family + ':*')) return true;
  if (colon !== -1 && family.startsWith('state.') && declared.includes(family)) return true;
  if (family.startsWith('state.') && family.endsWith('.read')) {
    const write = family.slice(0, -5) + '.write';
    if (grantsOne(declared, colon === -1 ? write : write + wanted.slice(colon))) return true;
  }
  if (family === 'skill.activate' && declared.includes('skill.activate')) return true;
  return false;
}
function grants(declared, wanted) {
  if (grantsOne(declared, wanted)) return true;
  if (wanted === 'network.fetch' && declared.includes('network')) return true;
  if (wanted === 'network' && grantsOne(declared, 'network.fetch')) return true;
  return false;
}
const copy = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
// As Pepe's own ctx: a result must be JSON data (JSON.stringify would turn NaN into null, a Map into {}).
function strictJson(v, at) {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
  if (typeof v === 'number') { if (!Number.isFinite(v)) throw new TypeError('ctx.result.set: ' + at + ' is ' + String(v) + ', which is not JSON (numbers must be finite)'); return; }
  if (typeof v !== 'object') throw new TypeError('ctx.result.set: ' + at + ' is a ' + typeof v + ', which is not JSON');
  if (Array.isArray(v)) { for (let i = 0; i < v.length; i++) { if (v[i] === undefined) throw new TypeError('ctx.result.set: ' + at + '[' + i + '] is undefined, which is not JSON (use null)'); strictJson(v[i], at + '[' + i + ']'); } return; }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw new TypeError('ctx.result.set: ' + at + ' is a ' + ((v.constructor && v.constructor.name) || 'non-plain object') + ', which is not JSON (use a plain object or a list)');
  for (const [k, item] of Object.entries(v)) {
    if (item === undefined) throw new TypeError('ctx.result.set: ' + at + '.' + k + ' is undefined, which is not JSON (use null)');
    strictJson(item, at + '.' + k);
  }
}
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const blank = (t) => typeof t === 'string' && t.trim() === '';

function makeCtx(id, d, signal) {
  let done = false;
  const alive = () => { if (done || signal.aborted) throw new Error(d.phase + ' slot "' + d.slotId + '" was stopped; its ctx can no longer be used'); };
  const known = (cap) => {
    const colon = cap.indexOf(':');
    return colon === -1 ? d.vocabulary.plain.includes(cap) : d.vocabulary.named.includes(cap.slice(0, colon));
  };
  const need = (cap) => {
    alive();
    if (grants(d.capabilities, cap)) return;
    throw new Error(d.phase + ' slot "' + d.slotId + '" needs the capability "' + cap + '": ' + (known(cap)
      ? 'add it to "capabilities:" in ' + d.manifestFile + " (or grant it under capabilities.defaults in the core's agent.yaml)"
      : 'it is not a capability Pepe knows, so no slot.yaml can grant it'));
  };
  const op = (p, args) => { alive(); send({ type: 'event', id, event: { type: 'op', path: p, args: copy(args) } }); };
  const rpc = (p, args) => new Promise((resolve, reject) => {
    alive();
    const rpcId = nextRpc++;
    rpcs.set(rpcId, { resolve, reject });
    send({ type: 'event', id, event: { type: 'rpc', rpcId, path: p, args: copy(args) } });
  });
  const unavailable = (ctx, names, why) => {
    for (const name of names) Object.defineProperty(ctx, name, { enumerable: false, get() { throw new Error('ctx.' + name + ' is not available ' + why); } });
  };
  const ctx = {
    sessionId: d.sessionId, slotId: d.slotId, slotPath: d.slotPath, slotDir: d.slotDir, coreId: d.coreId, coreRevision: d.coreRevision,
    phase: d.phase, group: d.group, workspace: d.workspace, signal,
    capability: {
      can: (cap) => { alive(); return typeof cap === 'string' && grants(d.capabilities, cap); },
      require: (cap) => { need(String(cap)); },
    },
  };
  if (d.phase === 'bootstrap') {
    ctx.bootstrap = { add: (t) => op('bootstrap.add', [t]) };
    unavailable(ctx, ['turn', 'history', 'state', 'tools', 'agents', 'skills', 'result', 'input', 'output'], 'to bootstrap slots: bootstrap runs once per session, before any turn');
    return { ctx, end: () => { done = true; } };
  }
  const store = (scope) => {
    const data = copy(d.state[scope] || {});
    const read = (key) => need('state.' + scope + '.read' + (key === undefined ? '' : ':' + key));
    const write = (key, value) => {
      need('state.' + scope + '.write:' + key);
      // As in Pepe's own ctx: undefined is not JSON (and would arrive as null otherwise).
      if (value === undefined) throw new TypeError('state.' + scope + '["' + key + '"]: undefined cannot be stored; use null');
    };
    return {
      get: (key) => { read(String(key)); return copy(data[key]); },
      set: (key, value) => { write(key, value); op('state.' + scope + '.set', [key, value]); data[key] = copy(value); },
      merge: (key, value) => { write(key, value); op('state.' + scope + '.merge', [key, value]); data[key] = Object.assign({}, data[key] || {}, copy(value)); },
      append: (key, value) => { write(key, value); op('state.' + scope + '.append', [key, value]); data[key] = (data[key] || []).concat([copy(value)]); },
      snapshot: () => { read(); return copy(data); },
    };
  };
  let result = d.result;
  Object.assign(ctx, {
    turn: copy(d.turn),
    history: {
      recentMessages: (limit = 20, options) => {
        alive();
        if (typeof limit !== 'number' || Number.isNaN(limit)) throw new TypeError('ctx.history.recentMessages: limit must be a number');
        if (limit <= 0) return [];
        const roles = (options && options.roles) || ['user', 'assistant', 'tool'];
        const picked = d.history.filter((m) => roles.includes(m.role));
        return copy(picked.slice(-Math.floor(limit)));
      },
    },
    state: { session: store('session'), core: store('core') },
    tools: { call: (name, args = {}) => rpc('tools.call', [name, args]) },
    agents: {
      run: (agent, text, options) => rpc('agents.run', [agent, text, options]),
      spawn: (agent, text, options) => {
        const handle = 'spawn-' + nextRpc++;
        op('agents.spawn', [agent, text, options, handle]);
        return { taskId: handle, agent, status: 'running', wait: () => rpc('agents.wait', [handle]) };
      },
    },
    result: {
      get value() { alive(); return copy(result); },
      set: (value) => {
        alive();
        const v = value === undefined ? null : value;
        strictJson(v, 'the value');
        op('result.set', [v]);
        result = isObj(result) && isObj(v) ? Object.assign({}, result, copy(v)) : copy(v);
      },
    },
  });
  if (d.phase === 'input') {
    ctx.input = {
      rawText: d.rawText,
      attachments: copy(d.attachments || []),
      addContext: (t, options) => op('input.addContext', [t, options]),
      sendText: (t, options) => op('input.sendText', [t, options]),
      progress: (t) => op('input.progress', [t]),
      notice: (t) => op('input.notice', [t]),
    };
    ctx.skills = { activate: (name) => rpc('skills.activate', [name]) };
    unavailable(ctx, ['output', 'bootstrap'], 'to input slots');
  } else {
    ctx.output = {
      responseText: d.responseText,
      sendText: (t, options) => op('output.sendText', [t, options]),
      progress: (t) => op('output.progress', [t]),
      notice: (t) => op('output.notice', [t]),
    };
    unavailable(ctx, ['input', 'skills', 'bootstrap'], 'to output slots');
  }
  return { ctx, end: () => { done = true; } };
}

const errors = {};
function start() {
  for (const [key, s] of Object.entries(init.slots)) {
    try {
      const fn = load(s.file)[s.exportName];
      if (typeof fn !== 'function') throw new Error('export "' + s.exportName + '" is not a function');
      entries.set(key, fn);
    } catch (e) { errors[key] = describe(e); }
  }
  // name/slot are fixed for a core; functions lists the slots that loaded, errors why others did not.
  send({ type: 'ready', name: 'agent-core', slot: 'agent-core', functions: [...entries.keys()] });
}

async function call(msg) {
  const { id } = msg;
  const ac = new AbortController();
  aborts.set(id, ac);
  let end = () => {};
  try {
    if (msg.fn !== 'runSlot') throw new Error('unknown call ' + msg.fn);
    const [key, desc] = msg.args;
    const fn = entries.get(key);
    if (!fn) throw new Error(errors[key] || 'slot ' + key + ' did not load in the core process');
    const made = makeCtx(id, desc, ac.signal);
    end = made.end;
    const returned = await fn(made.ctx);
    // Only the fact is sent back: the host says the value was ignored.
    send({ type: 'result', id, ok: true, value: returned === undefined || returned === null ? null : { returned: Array.isArray(returned) ? 'array' : typeof returned } });
  } catch (e) {
    // Where in the slot's module it was thrown (lines survive transpiling), after a NUL for the host to split off.
    const s = msg.args && init.slots[msg.args[0]];
    const stack = e && typeof e === 'object' && typeof e.stack === 'string' ? e.stack : '';
    const at = s ? stack.split('\n').map((l) => l.indexOf(s.file + ':') === -1 ? null : l.slice(l.indexOf(s.file + ':') + s.file.length + 1).split(':')[0]).find((l) => l && /^\d+$/.test(l)) : null;
    send({ type: 'result', id, ok: false, kind: 'error', message: describe(e) + (at ? '\u0000' + s.file + ':' + at : '') });
  } finally {
    end();
    aborts.delete(id);
  }
}

function onMessage(msg) {
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'init' && !init) { init = msg; start(); }
  else if (msg.type === 'call') call(msg);
  else if (msg.type === 'abort') { const ac = aborts.get(msg.id); if (ac) ac.abort(new Error('stopped')); }
  else if (msg.type === 'rpc_result') {
    const p = rpcs.get(msg.rpcId);
    if (!p) return;
    rpcs.delete(msg.rpcId);
    if (msg.ok) p.resolve(msg.value); else p.reject(new Error(String(msg.message)));
  }
}

${CHILD_CHANNEL_SOURCE}`;
