import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ensureBuilt, pepeCli } from '../helpers/cli.js';
import { TempHome } from '../helpers/home.js';

describe('secrets never reach the sandbox (spec 8)', function () {
  this.timeout(60_000);
  let home: TempHome;
  before(ensureBuilt);
  beforeEach(() => {
    home = new TempHome();
  });
  afterEach(() => home.cleanup());

  const secrets = {
    OPENAI_API_KEY: 'sk-openai-0123456789',
    GITHUB_TOKEN: 'ghp_token_0123456789',
    MY_SECRET: 'my-secret-0123456789',
    CUSTOM_PROVIDER_CRED: 'custom-cred-0123456789',
    AWS_ACCESS_KEY_ID: 'AKIA0123456789',
    DB_PASSWORD: 'hunter2-0123456789',
  };

  it('`pepe slot test sandbox -- env` shows none of them; secrets.expose_env brings one back', async () => {
    home.writeConfig({ models: { fast: { provider: 'openai', model: 'gpt-4o-mini', api_key_env: 'CUSTOM_PROVIDER_CRED' } } });
    let r = await pepeCli(home.dir, ['slot', 'test', 'sandbox', '--', 'env'], { ...secrets, HARMLESS_SETTING: 'visible' });
    assert.equal(r.exitCode, 0, r.stderr);
    let answer = JSON.parse(r.stdout);
    assert.equal(answer.answeredBy, 'builtin');
    assert.equal(answer.result.exitStatus, 0);
    const output: string = answer.result.output;
    // The environment is an allow-list: a variable is not passed because it looks harmless.
    assert.doesNotMatch(output, /HARMLESS_SETTING/);
    assert.match(output, /^PATH=/m);
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(!output.includes(name), `${name} leaked`);
      assert.ok(!output.includes(value), `${name}'s value leaked`);
    }

    home.writeConfig({ models: { fast: { provider: 'openai', model: 'gpt-4o-mini', api_key_env: 'CUSTOM_PROVIDER_CRED' } }, secrets: { expose_env: ['GITHUB_TOKEN'] } });
    r = await pepeCli(home.dir, ['slot', 'test', 'sandbox', '--', 'env'], secrets);
    answer = JSON.parse(r.stdout);
    assert.match(answer.result.output, /GITHUB_TOKEN=ghp_token_0123456789/);
    assert.ok(!answer.result.output.includes('OPENAI_API_KEY'), '!answer.result.output.includes(\'OPENAI_API_KEY\')');
  });

  it('a sandbox plugin receives the scrubbed environment too, and secrets stay out of the log', async () => {
    home.writePlugin('spy.mjs', `export const name = () => 'spy'; export const slot = () => 'sandbox';
      export function run(program, argv, opts) {
        if (program === 'fail') throw new Error('leak attempt: ' + process.env.MY_SECRET + ' ' + JSON.stringify(opts.env));
        return { output: Object.keys(opts.env).join(',') + '|' + Object.keys(process.env).join(','), exitStatus: 0 };
      }`);
    home.writeConfig({ slots: { sandbox: 'spy' }, models: { fast: { provider: 'openai', model: 'm', api_key_env: 'CUSTOM_PROVIDER_CRED' } } });
    let r = await pepeCli(home.dir, ['slot', 'test', 'sandbox', '--', 'env'], secrets);
    assert.equal(r.exitCode, 0, r.stderr);
    const answer = JSON.parse(r.stdout);
    assert.equal(answer.answeredBy, 'spy');
    for (const name of Object.keys(secrets)) assert.ok(!answer.result.output.includes(name), `${name} reached the plugin`);

    r = await pepeCli(home.dir, ['slot', 'test', 'sandbox', '--', 'fail'], secrets);
    assert.equal(r.exitCode, 1);
    const log = readFileSync(`${home.dir}/logs/pepe.jsonl`, 'utf8');
    assert.match(log, /leak attempt/);
    for (const value of Object.values(secrets)) assert.ok(!log.includes(value), 'a secret value reached the log');
  });
});
