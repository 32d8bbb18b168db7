import assert from 'node:assert/strict';
import { allowListEnv, redact, secretValues, withoutUrlCredentials } from '../../../src/core/secrets/scrub.js';

describe('environment by allow-list (spec 8)', () => {
  const host = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/ann',
    LANG: 'en_US.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm',
    USER: 'ann',
    SHELL: '/bin/bash',
    TMPDIR: '/tmp',
    OPENAI_API_KEY: 'sk-live-1234567890',
    ODDLY_NAMED: 'a secret nobody would guess by name',
    HARMLESS_SETTING: 'visible?',
    DATABASE_URL: 'postgres://app:hunter2hunter2@db.internal:5432/app',
    HTTPS_PROXY: 'http://ann:proxy-password-9@proxy.corp:3128',
    GIT_REMOTE: 'https://ghp_tokenAsUserName123@github.com/acme/x.git',
  };

  it('passes only PATH, HOME, LANG, LC_*, TERM, USER, SHELL and TMPDIR', () => {
    assert.deepEqual(Object.keys(allowListEnv(host)).sort(), ['HOME', 'LANG', 'LC_ALL', 'PATH', 'SHELL', 'TERM', 'TMPDIR', 'USER']);
  });

  it('secrets.expose_env brings named variables back, with any key inside a URL removed', () => {
    const env = allowListEnv(host, { secrets: { expose_env: ['HARMLESS_SETTING', 'DATABASE_URL', 'HTTPS_PROXY', 'GIT_REMOTE'] } });
    assert.equal(env.HARMLESS_SETTING, 'visible?');
    assert.equal(env.DATABASE_URL, 'postgres://db.internal:5432/app');
    assert.equal(env.HTTPS_PROXY, 'http://proxy.corp:3128');
    assert.equal(env.GIT_REMOTE, 'https://github.com/acme/x.git');
    assert.equal(env.OPENAI_API_KEY, undefined);
  });

  it('URL credentials: a password with an @ in it, several URLs, and text that is not a URL', () => {
    assert.equal(withoutUrlCredentials('https://u:p@ss@host/x https://t0ken@h2 plain@text'), 'https://host/x https://h2 plain@text');
  });

  it('keys inside URLs are redacted from what is written, whatever the variable is called', () => {
    const secrets = secretValues(host);
    const text = redact(`connect postgres://app:hunter2hunter2@db and ${host.OPENAI_API_KEY}`, secrets);
    assert.doesNotMatch(text, /hunter2hunter2|sk-live-1234567890/);
  });
});

describe('the secret values, asked for on every line written (issue 27)', () => {
  it('follow every change: a variable set, changed or removed in place, and a new api_key_env name', () => {
    const env: Record<string, string> = { PATH: '/usr/bin', A_TOKEN: 'aaaaaaaaaa', MY_VAR: 'mmmmmmmmmm' };
    assert.deepEqual(secretValues(env), ['aaaaaaaaaa']);
    const given = secretValues(env);
    given.push('changed by a caller');
    assert.deepEqual(secretValues(env), ['aaaaaaaaaa'], 'what a caller does with the answer is not kept');
    env.B_SECRET = 'bbbbbbbbbbbb';
    assert.deepEqual(secretValues(env), ['bbbbbbbbbbbb', 'aaaaaaaaaa'], 'a variable added to the same object');
    env.A_TOKEN = 'cccccccccc';
    assert.deepEqual(secretValues(env), ['bbbbbbbbbbbb', 'cccccccccc'], 'a value changed in place');
    delete env.B_SECRET;
    assert.deepEqual(secretValues(env), ['cccccccccc'], 'a variable removed');
    assert.deepEqual(secretValues(env, { models: { m: { provider: 'openai-compatible', model: 'x', api_key_env: 'MY_VAR' } } } as never), ['cccccccccc', 'mmmmmmmmmm'].sort((a, b) => b.length - a.length), 'a model names the variable its key is in');
    assert.deepEqual(secretValues(env), ['cccccccccc'], 'and no longer');
    assert.deepEqual(secretValues({ ...env }), ['cccccccccc'], 'another object with the same variables');
  });
});

describe('PATH for commands', () => {
  it('drops empty, relative and workspace folders, so a workspace cannot choose what `ls` runs', async () => {
    const { commandSearchPath } = await import('../../../src/core/secrets/scrub.js');
    const ws = '/home/me/project';
    assert.equal(
      commandSearchPath(`/home/me/project/node_modules/.bin::bin:./x:/usr/local/bin:/home/me/project:/usr/bin:/home/me/projectile/bin`, ws),
      '/usr/local/bin:/usr/bin:/home/me/projectile/bin',
    );
    assert.equal(commandSearchPath(undefined, ws), undefined);
  });
});
