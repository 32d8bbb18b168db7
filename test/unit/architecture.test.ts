import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('architecture rules', () => {
  it('src/core and src/cli never import vscode', () => {
    const offenders = [...sources(join(ROOT, 'src/core')), ...sources(join(ROOT, 'src/cli'))].filter((f) =>
      /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/.test(readFileSync(f, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('the check above would notice an import (it is not vacuous)', () => {
    assert.ok(/from\s+['"]vscode['"]/.test(`import * as vscode from 'vscode';`), '/from\\s+[\'"]vscode[\'"]/.test(`import * as vscode from \'vscode\';`)');
    assert.ok(sources(join(ROOT, 'src/core')).length > 10, 'sources(join(ROOT, \'src/core\')).length > 10');
  });
});
