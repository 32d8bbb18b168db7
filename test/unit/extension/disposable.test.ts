import assert from 'node:assert/strict';
import { Disposable, DisposableStore } from '../../../src/extension/disposable.js';

const item = (log: string[], name: string, fail = false) => ({
  dispose() {
    log.push(name);
    if (fail) throw new Error(`${name} failed`);
  },
});

describe('the extension\'s disposable store', () => {
  it('disposes newest first, once, and what is added afterwards at once', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(item(log, 'a'));
    store.add(item(log, 'b'));
    store.dispose();
    store.dispose();
    assert.deepEqual(log, ['b', 'a']);
    store.add(item(log, 'late'));
    assert.deepEqual(log, ['b', 'a', 'late']);
  });

  it('a failing dispose does not keep the others alive; the first error comes back after all ran', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(item(log, 'a', true));
    store.add(item(log, 'b', true));
    store.add(item(log, 'c'));
    assert.throws(() => store.dispose(), /^Error: b failed$/);
    assert.deepEqual(log, ['c', 'b', 'a']);
  });

  it('clear releases what it holds and stays usable', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(item(log, 'first core'));
    store.clear();
    store.add(item(log, 'second core'));
    assert.deepEqual(log, ['first core']);
    store.dispose();
    assert.deepEqual(log, ['first core', 'second core']);
  });

  it('_register ties a host object\'s resources to its dispose', () => {
    const log: string[] = [];
    class Host extends Disposable {
      readonly emitter = this._register(item(log, 'emitter'));
      constructor() {
        super();
        this._register(item(log, 'listener'));
      }
    }
    const host = new Host();
    assert.equal(typeof host.emitter.dispose, 'function');
    host.dispose();
    assert.deepEqual(log, ['listener', 'emitter']);
  });
});
