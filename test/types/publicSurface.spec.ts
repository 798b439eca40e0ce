/**
 * The public surface, read by the TypeScript compiler the way a user's editor reads it: every name
 * each entry point exports has TSDoc at its definition, and the main entry stays small (issue 11:
 * at most 35 runtime names; union members are reached with Extract<> rather than exported).
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const entries = {
  'rx-informer': 'src/index.ts',
  'rx-informer/testing': 'src/testing/index.ts',
  'rx-informer/test-server': 'src/testServer/index.ts',
  'rx-informer/prometheus': 'src/prometheus/index.ts',
  'rx-informer/controller': 'src/controllerEntry.ts',
  'rx-informer/relay': 'src/relay/index.ts',
  'rx-informer/web': 'src/web/index.ts',
  'rx-informer/fleet': 'src/fleet/index.ts',
  'rx-informer/envtest': 'src/envtest/index.ts',
} as const;

const root = fileURLToPath(new URL('../../', import.meta.url));
const program = ts.createProgram(
  Object.values(entries).map((path) => root + path),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, skipLibCheck: true, noEmit: true },
);
const checker = program.getTypeChecker();

interface Export {
  readonly name: string;
  readonly runtime: boolean;
  readonly documented: boolean;
}

function exportsOf(path: string): Export[] {
  const file = program.getSourceFile(root + path);
  if (file === undefined) throw new Error(`not in the program: ${path}`);
  const module = checker.getSymbolAtLocation(file);
  if (module === undefined) throw new Error(`not a module: ${path}`);
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const runtime = (target.flags & ts.SymbolFlags.Value) !== 0;
    const documented = target.getDocumentationComment(checker).some((part) => part.text.trim() !== '');
    return { name: symbol.getName(), runtime, documented };
  });
}

for (const [entry, path] of Object.entries(entries)) {
  test(`every export of ${entry} has TSDoc`, (t) => {
    const names = exportsOf(path);
    t.true(names.length > 0, 'the entry exports something');
    t.deepEqual(names.filter((e) => !e.documented).map((e) => e.name), []);
  });
}

test('rx-informer exports at most 35 runtime names', (t) => {
  const names = exportsOf(entries['rx-informer']);
  const runtime = names.filter((e) => e.runtime).map((e) => e.name);
  t.log(`${runtime.length} runtime names, ${names.length - runtime.length} types`);
  t.true(runtime.length <= 35, runtime.join(', '));
  t.true(runtime.includes('informer') && runtime.includes('listWatch'), 'the scan sees the values');
});
