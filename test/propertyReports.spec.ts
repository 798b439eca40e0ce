/**
 * Every fast-check property of the suite keeps fast-check's report when it fails (issue 38): the
 * seed, the path and the counterexample, so the failure can be replayed (docs/testing.md). A property
 * whose callback uses ava's `t` loses them: the first failed `t` assertion is what ava prints, and the
 * seed is gone (CI on f74cc83 printed only "Values are deeply equal to each other, but they are not
 * the same"). So no callback given to `fc.property` or `fc.asyncProperty` names `t`; such a callback
 * asserts with node:assert or returns false, and the test runs it with `assertProperty` or
 * `fc.assert`, which both report the seed.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../', import.meta.url));

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('node_modules')) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

/** Each place (file:line) where a property callback in `text` names the identifier `t`. */
export function propertyCallbacksNamingT(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === 'fc' && ['property', 'asyncProperty'].includes(node.expression.name.text)) {
      const callback = node.arguments.at(-1);
      if (callback !== undefined && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) {
        const namesT = (inner: ts.Node): void => {
          if (ts.isIdentifier(inner) && inner.text === 't' && !(ts.isPropertyAccessExpression(inner.parent) && inner.parent.name === inner)) {
            found.push(`${file}:${source.getLineAndCharacterOfPosition(inner.getStart()).line + 1}`);
          }
          ts.forEachChild(inner, namesT);
        };
        ts.forEachChild(callback.body, namesT);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('the check finds a property callback that asserts with t, or hands t on, and passes one that does not', (t) => {
  const bad = `test('x', (t) => { fc.assert(fc.property(fc.integer(), (n) => { t.true(n > 0); check(t, n); })); });`;
  const good = `test('x', (t) => { assertProperty(t, fc.property(fc.integer(), (n) => { assert.ok(n > 0); return x.t !== n; })); });`;
  t.deepEqual(propertyCallbacksNamingT('bad.ts', bad), ['bad.ts:1', 'bad.ts:1']);
  t.deepEqual(propertyCallbacksNamingT('good.ts', good), []);
});

test('no property callback of the suite names ava\'s t (a failure keeps fast-check\'s seed and path)', async (t) => {
  const files = [...(await tsFiles(join(root, 'test'))), ...(await tsFiles(join(root, 'packages')))];
  const found: string[] = [];
  let properties = 0;
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    if (!text.includes('fc.')) continue;
    properties += (text.match(/fc\.(async)?[pP]roperty\(/g) ?? []).length;
    found.push(...propertyCallbacksNamingT(relative(root, file), text));
  }
  t.true(properties >= 10, `only ${properties} properties found: the scan is looking in the wrong place`);
  t.deepEqual(found, []);
});
