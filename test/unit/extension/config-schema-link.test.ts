import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPepe, type Pepe } from '../../../src/core/pepe.js';
import { linkConfigSchema, refreshSchemaCopy, SCHEMA_REF } from '../../../src/extension/host/config-schema-link.js';

describe('the config schema wherever PEPE_HOME points', () => {
  let dir: string;
  let home: string;
  let schemaFile: string;
  let pepe: Pepe | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pepe-schema-'));
    home = join(dir, 'somewhere', 'else');
    schemaFile = join(dir, 'bundled.schema.json');
    writeFileSync(schemaFile, JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', title: 'v1' }));
  });
  afterEach(() => {
    pepe?.dispose();
    pepe = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts a copy next to config.json and a relative "$schema" first in it, keeping everything else', async () => {
    pepe = await createPepe({ home, env: {} });
    await pepe.agentAdd('ops', { model: 'mock' });
    assert.equal(await linkConfigSchema(pepe, schemaFile), true);
    const text = readFileSync(join(home, 'config.json'), 'utf8');
    const config = JSON.parse(text);
    assert.equal(Object.keys(config)[0], '$schema');
    assert.equal(config.$schema, SCHEMA_REF);
    assert.deepEqual(config.agents, { ops: { model: 'mock' } });
    assert.equal(readFileSync(join(home, 'config.schema.json'), 'utf8'), readFileSync(schemaFile, 'utf8'));
  });

  it('keeps a "$schema" the person chose', async () => {
    pepe = await createPepe({ home, env: {} });
    await pepe.agentAdd('ops', {});
    await pepe['store'].update((d) => void (d.$schema = 'https://example.org/mine.json'));
    await pepe.reload();
    assert.equal(await linkConfigSchema(pepe, schemaFile), false);
    assert.equal(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')).$schema, 'https://example.org/mine.json');
  });

  it('never writes a broken config.json', async () => {
    pepe = await createPepe({ home, env: {} });
    await pepe.agentAdd('ops', {});
    const broken = '{ "agents": { "ops": { "model": 42 } } }\n';
    writeFileSync(join(home, 'config.json'), broken);
    await pepe.reload().catch(() => undefined);
    await linkConfigSchema(pepe, schemaFile).catch(() => undefined);
    assert.equal(readFileSync(join(home, 'config.json'), 'utf8'), broken);
  });

  it('refreshes a stale copy after an update, and creates a missing home', async () => {
    await refreshSchemaCopy(home, schemaFile);
    writeFileSync(schemaFile, JSON.stringify({ title: 'v2' }));
    await refreshSchemaCopy(home, schemaFile);
    assert.equal(JSON.parse(readFileSync(join(home, 'config.schema.json'), 'utf8')).title, 'v2');
    assert.ok(!existsSync(join(home, 'config.json')), 'config.json is not created by the copy');
  });

  it('attack: a config.schema.json symlinked elsewhere (a home inside a hostile repository) is never written through', async () => {
    mkdirSync(home, { recursive: true });
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(home, 'config.schema.json'));
    await assert.rejects(refreshSchemaCopy(home, schemaFile), /not a regular file/);
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    assert.ok(lstatSync(join(home, 'config.schema.json')).isSymbolicLink(), 'the link was left as it was');
  });
});
