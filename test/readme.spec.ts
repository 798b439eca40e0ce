import test from 'ava';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { stripTypesImport } from './helpers/stripTypesImport.js';
import ts from 'typescript';
import { markdownTsBlocks, typeCheckSnippets } from './helpers/typeCheckSnippets.js';

const run = promisify(execFile);
const root = new URL('../', import.meta.url);

test('the README quick start is examples/quickStart.ts, and it runs as written', async (t) => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const example = await readFile(new URL('examples/quickStart.ts', root), 'utf8');
  const block = /<!-- quick-start:[^\n]*-->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  t.is(block, example);
  const { stdout } = await run(process.execPath, [stripTypesImport, 'examples/quickStart.ts'], { cwd: root, timeout: 30_000 });
  t.deepEqual(stdout.trim().split('\n'), ['add demo/a', 'add demo/b', 'synced: 2 objects at resourceVersion 2', 'update demo/a', 'delete demo/b', "[ 'demo/a' ]"]);
});

test('the README\'s "Write a controller" is examples/writeController.ts, at most 30 lines, and it runs as written', async (t) => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const section = /^## Write a controller\n[\s\S]*?(?=^## )/m.exec(readme)?.[0].trimEnd() ?? '';
  t.true(section.split('\n').length <= 30, `${section.split('\n').length} lines`);
  const block = /<!-- write-controller:[^\n]*-->\n```ts\n([\s\S]*?)```/.exec(section)?.[1];
  t.is(block, await readFile(new URL('examples/writeController.ts', root), 'utf8'));
  const { stdout } = await run(process.execPath, [stripTypesImport, 'examples/writeController.ts'], { cwd: root, timeout: 30_000 });
  t.is(stdout.trim(), "demo/app success { mode: 'fast' }");
});

test('the README keeps exactly two set-up commands, and they name scripts that exist', async (t) => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> };
  const setUp = /## Set up\n\n(?:(?!```)[^\n]*\n)*```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.trim().split('\n') ?? [];
  t.is(setUp.length, 2);
  t.regex(setUp[0]!, /^npm install && npm start\b/);
  t.regex(setUp[1]!, /^npm install && npm test\b/);
  t.truthy(pkg.scripts.start);
  t.truthy(pkg.scripts.test);
});

test('before its two commands, Set up says which Node runs them and that the EBADENGINE warnings are expected', async (t) => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const before = /## Set up\n\n([\s\S]*?)```sh/.exec(readme)?.[1] ?? '';
  t.regex(before, /brings the project's own Node 24/);
  t.regex(before, /`EBADENGINE` warnings[\s\S]*`rx-informer`, `rx-informer-cli`[\s\S]*`undici`[\s\S]*expected/);
  const install = /## Install\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  t.regex(install, /Node ≥ 22\.19 for anything that talks to a server/);
});

test('every TypeScript block of the README type-checks as it stands (strict, its own imports, nothing hidden)', async (t) => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const blocks = markdownTsBlocks('README.md', readme);
  t.true(blocks.length >= 5, `${blocks.length} blocks`);
  t.deepEqual(typeCheckSnippets(blocks), []);
});

test('the snippet check can fail: an undefined name, a missing import and a script are each reported', (t) => {
  const problems = typeCheckSnippets([
    { name: 'undefined-name', code: "import { informer } from 'rx-informer';\ninformer(source$);\n" },
    { name: 'no-import', code: 'const keys = [1, 2].map((n) => String(n));\nmap(keys);\n' },
  ]);
  t.true(problems.some((p) => p.startsWith('undefined-name:2: ') && p.includes("'source$'")), problems.join('\n'));
  t.true(problems.some((p) => p.startsWith('no-import: imports nothing')), problems.join('\n'));
  t.true(problems.some((p) => p.startsWith('no-import:2: ') && p.includes("'map'")), problems.join('\n'));
});

/**
 * The `subscribe` calls of a snippet that would leave an error unhandled: any but those on a stream
 * that never errors (`status$`, `objective$`, and a fleet's `errors$`, the problems that did not stop
 * the fleet) must pass an observer with `error`. RxJS throws an
 * unhandled error out of a timer, which ends a Node process (issue 43: a README example exited 1
 * when its source failed for good).
 */
function unhandledSubscribes(name: string, code: string): string[] {
  const source = ts.createSourceFile(`${name}.ts`, code, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'subscribe') {
      const receiver = node.expression.expression.getText(source);
      const neverErrors = /\.(status|objective)\$$/.test(receiver) || receiver === 'fleet.errors$';
      const observer = node.arguments[0];
      const handles = observer !== undefined && ts.isObjectLiteralExpression(observer) && observer.properties.some((p) => p.name?.getText(source) === 'error');
      if (!neverErrors && !handles) found.push(`${name}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.getText(source).split('\n').at(-1)!.trim()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('every README example that subscribes to a stream that can error handles the error (copying one cannot crash the process)', async (t) => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  t.deepEqual(markdownTsBlocks('README.md', readme).flatMap((block) => unhandledSubscribes(block.name, block.code)), []);
  // The check can fail.
  t.deepEqual(unhandledSubscribes('x', 'a.changes$.subscribe((c) => c);\na.status$.subscribe(() => 1);\nb.subscribe({ next: () => 1, error: () => 2 });\nc.pipe().subscribe();'), [
    'x:1: a.changes$.subscribe((c) => c)',
    'x:4: c.pipe().subscribe()',
  ]);
});
