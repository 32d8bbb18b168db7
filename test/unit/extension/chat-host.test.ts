import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasHiddenCharacters } from '../../../src/core/display.js';
import { UsageLedger } from '../../../src/core/runtime/usage.js';
import { SessionStore } from '../../../src/core/runtime/session-store.js';
import type { TurnEvent } from '../../../src/core/events.js';
import { configNotice } from '../../../src/extension/chat/config-notice.js';
import { historyItems, sessionSummaries, sessionTitle } from '../../../src/extension/chat/history-items.js';
import { inertEvent } from '../../../src/extension/chat/inert-items.js';
import { UsageMeter } from '../../../src/extension/chat/usage-meter.js';
import { problemPosition } from '../../../src/extension/host/config-problem.js';
import { TurnEventSchema } from '../../../src/protocol/turn-event.js';
import { TempHome } from '../helpers/home.js';

/** Every string anywhere in a value. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)]);
  return [];
}

describe('chat host: what the webview is given', () => {
  describe('model-controlled text is visible and inert before it is posted', () => {
    // A command that shows as `ls` on a terminal but deletes: carriage return, ANSI, OSC, bidi.
    const evil = 'rm -rf ~/work\r\x1b[2Kls -la \x1b]0;title\x07\u202eexe.txt\u200b';
    const path = ['a'];
    const events: TurnEvent[] = [
      { type: 'tool_call', path, id: '1', name: 'bash', arguments: { command: evil, cwd: `sub\u202e` } },
      { type: 'assistant_message', path, content: 'ok', model: 'm', toolCalls: [{ id: '1', name: 'bash', arguments: { command: evil } }] },
      { type: 'approval_requested', path, id: 'x', tool: `bash\x1b[8m`, arguments: { command: evil }, chain: path, summary: `$ ${evil}`, reasons: [`because\r${evil}`] },
      { type: 'approval_decided', path, id: 'x', tool: 'bash', allowed: false, by: 'user', decision: null, reason: `no\x1b[31m` },
      { type: 'approval_followup', path, items: [{ id: 'x', tool: 'bash', arguments: { command: evil }, status: 'ran', content: evil }] },
      { type: 'tool_result', path, id: '1', name: 'bash', content: `exit status 0\n${evil}`, isError: false, untrusted: true },
      { type: 'route_call', path, phase: 'end', id: 'r', from: 'a', to: 'b', chain: ['a', 'b'], result: evil },
      { type: 'error', path, message: evil, recoverable: true },
      { type: 'turn_end', path, agent: 'a', sessionId: 's', turnId: 't', content: '', status: 'error', error: evil },
      { type: 'core', path, event: { type: 'core_notice', slotId: null, text: evil } },
      // A workspace's instruction file names are the workspace's to choose (issue 24); failed
      // before inertEvent knew the event: the names reached the chat raw.
      { type: 'instructions', path, files: [{ name: `.clinerules/${evil}.md`, cut: false }], leftOut: [`.cursor/rules/${evil}.mdc`] },
    ];

    for (const e of events) {
      it(`${e.type}: no hidden character survives, and the event still validates`, () => {
        assert.ok(strings(e).some(hasHiddenCharacters), 'the attack carries hidden characters');
        const out = inertEvent(e);
        const leaked = strings(out).filter(hasHiddenCharacters);
        assert.deepEqual(leaked, [], `raw control characters reached the chat: ${JSON.stringify(leaked)}`);
        assert.equal(TurnEventSchema.safeParse(out).success, true);
      });
    }

    it("a bash command with hidden characters is shown $'…'-quoted, as the approval modal shows it", () => {
      const out = inertEvent(events[0]!) as Extract<TurnEvent, { type: 'tool_call' }>;
      const command = (out.arguments as { command: string }).command;
      assert.ok(command.startsWith("$'") && command.includes('\\r') && command.includes('\\e[2K') && command.includes('\\u{202e}'), command);
    });

    it('plain arguments and the answer text are left as written', () => {
      const plain: TurnEvent = { type: 'tool_call', path, id: '1', name: 'bash', arguments: { command: 'ls -la', n: 3 } };
      assert.deepEqual(inertEvent(plain), plain);
      const delta: TurnEvent = { type: 'assistant_delta', path, text: 'héllo 👨‍👩‍👧 مرحبا' };
      assert.deepEqual(inertEvent(delta), delta);
    });
  });

  describe('the history list asks the core for origins, never matches titles', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pepe-hist-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('user and heartbeat sessions are listed (heartbeats marked); routed and child ones are not, whatever their titles', () => {
      const store = new SessionStore(dir);
      const user = store.create('a', { origin: 'user', title: 'routed from x' }); // a person may title it anything
      const beat = store.create('a', { origin: 'heartbeat', title: 'heartbeat 2026-01-01 10:00' });
      store.create('b', { origin: 'routed', title: 'plain title' });
      store.create('b', { origin: 'child', title: 'another plain title' });
      const listed = sessionSummaries(store).map((s) => [s.id, s.origin]).sort();
      assert.deepEqual(listed, [[user, 'user'], [beat, 'heartbeat']].sort());
    });
  });

  describe('sessions are titled from their first message', () => {
    it('first non-empty line, control characters out, shortened to 60 characters', () => {
      assert.equal(sessionTitle('\n  Fix the build\nthen more'), 'Fix the build');
      assert.equal(sessionTitle('a\x1b[31mb\u202ec'), 'a [31mb c');
      const long = sessionTitle('x'.repeat(200));
      assert.equal([...long].length, 60);
      assert.ok(long.endsWith('…'));
      assert.equal(sessionTitle('   '), 'New session');
    });
  });

  describe('a message that got no answer keeps Retry after a reload', () => {
    it('a stored session ending with the user message gets a notice with that text to retry', () => {
      const items = historyItems('a', [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'answer' },
        { role: 'user', content: 'second' },
      ]);
      const last = items.at(-1);
      assert.equal(last?.kind, 'notice');
      assert.equal(last?.kind === 'notice' ? last.retryText : undefined, 'second');
    });

    it('an answered session gets none', () => {
      const items = historyItems('a', [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }]);
      assert.ok(!items.some((i) => i.kind === 'notice'));
    });
  });

  describe('the config.json problem row opens the file where the problem is', () => {
    it('a JSON syntax error: the line and column the core reported', () => {
      assert.deepEqual(problemPosition('/h/config.json: not valid JSON at line 3, column 7 (Unexpected token). Fix the JSON syntax', undefined), { line: 3, column: 7 });
      assert.deepEqual(problemPosition('/h/config.json: not valid JSON: the file ends too early (at line 9); something is not closed', undefined), { line: 9, column: 1 });
    });

    it('a schema problem: the JSON path found in the text, key by key', () => {
      const text = '{\n  "models": { "tools": 1 },\n  "agents": {\n    "triage": {\n      "tools": "bash"\n    }\n  }\n}\n';
      assert.deepEqual(problemPosition('/h/config.json: agents.triage.tools: expected an array; make it an array Pepe left the file unchanged.', text), { line: 5, column: 7 });
      // A key that is not there: the deepest one found (here "agents"), not a decoy elsewhere.
      assert.deepEqual(problemPosition('/h/config.json: agents.nobody.tools: expected an array', text), { line: 3, column: 3 });
      assert.equal(problemPosition('something else entirely', text), undefined);
    });
  });

  describe('the chat says when it is not running on config.json as written', () => {
    it('last good configuration, no configuration at all, sections set aside, or nothing', () => {
      assert.match(configNotice({ problem: 'bad JSON', hasLastGood: true, setAside: [] })?.text ?? '', /last good configuration.*bad JSON/);
      assert.equal(configNotice({ problem: 'bad JSON', hasLastGood: false, setAside: [] })?.level, 'error');
      assert.match(configNotice({ problem: null, hasLastGood: true, setAside: [{ section: 'agents.a.tools', problems: ['agents.a.tools: expected an array'] }] })?.text ?? '', /set aside.*agents\.a\.tools/);
      assert.equal(configNotice({ problem: null, hasLastGood: true, setAside: [] }), null);
    });

    it('keys Pepe does not know (a misspelt field in an agent) are named, not ignored', () => {
      const notice = configNotice({ problem: null, hasLastGood: true, setAside: [], unknown: ['agents.a.mcp_servers'] });
      assert.equal(notice?.level, 'warning');
      assert.match(notice?.text ?? '', /key Pepe does not know, so it does nothing: "agents\.a\.mcp_servers"\. Check the spelling/);
      assert.equal(configNotice({ problem: null, hasLastGood: true, setAside: [], unknown: [] }), null);
    });
  });

  describe('tokens and cost per turn and per session, from the usage records', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pepe-usage-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('each usage record names the session and turn of its model call (a real turn on the mock model)', async () => {
      const home = new TempHome();
      try {
        home.writeConfig({ agents: { a: { model: 'mock' } } });
        const pepe = await home.pepe();
        const meter = new UsageMeter({ onRecord: (listener) => pepe.onUsageRecord(listener), all: () => pepe.usageRecords() });
        meter.startTurn();
        const result = await pepe.run({ agent: 'a', text: 'hello', personPresent: false, onEvent: (e) => meter.onEvent(e) });
        const records = pepe.usageRecords();
        assert.ok(records.length >= 1);
        for (const r of records) assert.deepEqual([r.sessionId, r.turnId], [result.sessionId, result.turnId]);
        assert.equal(meter.endTurn()?.calls, records.length);
        assert.equal(meter.sessionUsage(result.sessionId)?.calls, records.length);
        meter.dispose();
      } finally {
        home.cleanup();
      }
    });

    it("a turn counts its own calls and its consulted agents'; other turns and sessions are not counted", () => {
      const ledger = new UsageLedger(join(dir, 'usage.jsonl'));
      ledger.record({ agent: 'a', project: null, model: 'm', inputTokens: 100, outputTokens: 100, costUsd: 1, sessionId: 's1', turnId: 'old' });
      const meter = new UsageMeter(ledger);
      assert.deepEqual(meter.sessionUsage('s1'), { calls: 1, inputTokens: 100, outputTokens: 100, costUsd: 1 });
      meter.startTurn();
      const path = ['a'];
      meter.onEvent({ type: 'turn_start', path, agent: 'a', sessionId: 's1', turnId: 't1', model: 'm' });
      ledger.record({ agent: 'a', project: null, model: 'm', inputTokens: 12, outputTokens: 9, costUsd: 0.001, sessionId: 's1', turnId: 't1' });
      meter.onEvent({ type: 'turn_start', path: ['a', 'b'], agent: 'b', sessionId: 's2', turnId: 't2', model: 'm' });
      ledger.record({ agent: 'b', project: null, model: 'm', inputTokens: 5, outputTokens: 5, costUsd: 0, sessionId: 's2', turnId: 't2' });
      ledger.record({ agent: 'c', project: null, model: 'm', inputTokens: 999, outputTokens: 999, costUsd: 9, sessionId: 's3', turnId: 'elsewhere' });
      assert.deepEqual(meter.endTurn(), { calls: 2, inputTokens: 17, outputTokens: 14, costUsd: 0.001 });
      assert.deepEqual(meter.sessionUsage('s1'), { calls: 2, inputTokens: 112, outputTokens: 109, costUsd: 1.001 });
      meter.startTurn();
      assert.equal(meter.endTurn(), null, 'a turn without model calls has no line');
      meter.dispose();
      ledger.record({ agent: 'a', project: null, model: 'm', inputTokens: 1, outputTokens: 1, costUsd: 0, sessionId: 's1', turnId: 't9' });
      assert.equal(meter.sessionUsage('s1')?.calls, 2, 'a disposed meter stops listening');
    });
  });
});
