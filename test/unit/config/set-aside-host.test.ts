import assert from 'node:assert/strict';
import { TempHome } from '../helpers/home.js';

describe('hosts see the sections set aside', () => {
  let home: TempHome;
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  it('pepe.configSetAside() lists each section with its problems; clean config lists none', async () => {
    home.writeConfig({ slots: ['memory'], agents: { a: { model: 'mock', tools: 'bash' } } });
    const pepe = await home.pepe({ workspace: home.dir });
    const sections = pepe.configSetAside().map((s) => s.section).sort();
    assert.deepEqual(sections, ['agents.a.tools', 'slots']);
    assert.match(pepe.configSetAside().find((s) => s.section === 'slots')!.problems[0]!, /make it an object/);
    home.writeConfig({ agents: { a: { model: 'mock' } } });
    await pepe.reload();
    assert.deepEqual(pepe.configSetAside(), []);
  });
});
