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

const channel = new net.Socket({ fd: 3, readable: true, writable: true });
let init = null;
const entries = new Map();
const aborts = new Map();
const rpcs = new Map();
let nextRpc = 1;

function describe(e) {
  if (e && typeof e === 'object' && 'message' in e) return String(e.message);
  try { return JSON.stringify(e); } catch { return String(e); }
}
function frame(text) {
  const body = Buffer.from(text, 'utf8');
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}
function send(message) { channel.write(frame(JSON.stringify(message))); }

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
function grants(declared, wanted) {
  if (declared.includes(wanted)) return true;
  const colon = wanted.indexOf(':');
  if (colon !== -1 && declared.includes(wanted.slice(0, colon) + ':*')) return true;
  if (wanted.endsWith('.read') && declared.includes(wanted.slice(0, -5) + '.write')) return true;
  if (wanted.startsWith('skill.activate:') && declared.includes('skill.activate')) return true;
  return false;
}
const copy = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

function makeCtx(id, d, signal) {
  let done = false;
  const alive = () => { if (done || signal.aborted) throw new Error(d.phase + ' slot "' + d.slotId + '" was stopped; its ctx can no longer be used'); };
  const need = (cap) => {
    alive();
    if (!grants(d.capabilities, cap)) throw new Error(d.phase + ' slot "' + d.slotId + '" needs the capability "' + cap + '": add it to "capabilities:" in ' + d.manifestFile);
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
    sessionId: d.sessionId, slotId: d.slotId, slotPath: d.slotPath, phase: d.phase, group: d.group, workspace: d.workspace, signal,
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
    const read = () => need('state.' + scope + '.read');
    const write = (key, value) => {
      need('state.' + scope + '.write');
      // As in Pepe's own ctx: undefined is not JSON (and would arrive as null otherwise).
      if (value === undefined) throw new TypeError('state.' + scope + '["' + key + '"]: undefined cannot be stored; use null');
    };
    return {
      get: (key) => { read(); return copy(data[key]); },
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
        need('history.read');
        if (!Number.isInteger(limit) || limit < 0) throw new TypeError('ctx.history.recentMessages: limit must be a whole number ≥ 0');
        const roles = options && options.roles;
        const picked = d.history.filter((m) => !roles || roles.includes(m.role));
        return copy(limit === 0 ? [] : picked.slice(-limit));
      },
    },
    state: { session: store('session'), core: store('core') },
    tools: { call: (name, args = {}) => rpc('tools.call', [name, args]) },
    agents: {
      run: (agent, text, options) => rpc('agents.run', [agent, text, options]),
      spawn: (agent, text, options) => {
        const handle = 'spawn-' + nextRpc++;
        op('agents.spawn', [agent, text, options, handle]);
        return { taskId: handle, agent, wait: () => rpc('agents.wait', [handle]) };
      },
    },
    result: {
      get value() { alive(); return copy(result); },
      set: (value) => { op('result.set', [value]); result = copy(value === undefined ? null : value); },
    },
  });
  if (d.phase === 'input') {
    ctx.input = { rawText: d.rawText, addContext: (t, options) => op('input.addContext', [t, options]) };
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
    await fn(made.ctx);
    send({ type: 'result', id, ok: true, value: null });
  } catch (e) {
    send({ type: 'result', id, ok: false, kind: 'error', message: describe(e) });
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

let chunks = [];
let buffered = 0;
channel.on('data', (chunk) => {
  chunks.push(chunk);
  buffered += chunk.length;
  for (;;) {
    if (buffered < 4) return;
    const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    chunks = [all];
    const length = all.readUInt32BE(0);
    if (buffered < 4 + length) return;
    const body = all.subarray(4, 4 + length);
    const rest = all.subarray(4 + length);
    chunks = rest.length ? [rest] : [];
    buffered = rest.length;
    let msg;
    try { msg = JSON.parse(body.toString('utf8')); } catch { process.exit(70); }
    onMessage(msg);
  }
});
channel.on('end', () => process.exit(0));
channel.on('close', () => process.exit(0));
channel.on('error', () => process.exit(0));
`;
