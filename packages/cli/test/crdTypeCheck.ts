/**
 * Checks of generated CRD types with the TypeScript compiler: {@link compileGenerated} type-checks a
 * folder that `crd-types` wrote (strict, `skipLibCheck: false`, exact optional properties, checked
 * index access), and {@link schemaVsType} walks each kind's schema beside its interface, field by
 * field, through the type checker.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Crd, SchemaProps } from '../src/crdTypes/crd.js';
import type { GeneratedFile } from '../src/crdTypes/generateCrdTypes.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Compiler options as strict as a user's can be. `rx-informer` resolves to the library's own
 * `ListWatchResource` source, the one type the generated modules import.
 */
export const strictOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: false,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  types: [],
  noEmit: true,
  paths: { 'rx-informer': [join(root, 'src/client/listWatchResource.ts')] },
};

/**
 * Writes generated files into a new temporary folder and returns it (the caller removes it). The
 * folder is under the repository's `node_modules/.cache`, so that code in it resolves
 * `@kubernetes/client-node` and the other packages as a user's project would.
 */
export async function writeGenerated(files: readonly GeneratedFile[], extra: readonly GeneratedFile[] = []): Promise<string> {
  const cache = join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, 'crd-types-'));
  for (const file of [...files, ...extra]) {
    const path = join(dir, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text);
  }
  return dir;
}

/** Removes a folder made by {@link writeGenerated}. */
export function removeGenerated(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** A program over every `.ts` file of `dir` (as `files` name them), and its diagnostics as `file:line: message`. */
export function compileGenerated(dir: string, files: readonly GeneratedFile[], options: ts.CompilerOptions = strictOptions): { program: ts.Program; problems: string[] } {
  const program = ts.createProgram(
    files.map((file) => join(dir, ...file.path.split('/'))),
    options,
  );
  const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const file = diagnostic.file;
    const line = file && diagnostic.start !== undefined ? file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    return `${file?.fileName ?? '?'}:${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
  return { program, problems };
}

/** What {@link schemaVsType} found. */
export interface WalkResult {
  /** Schema nodes compared with their type. */
  readonly checked: number;
  /** Every difference, as `Kind version path: what`. */
  readonly problems: string[];
}

/**
 * Walks every served version's schema of every CRD beside the generated interface of its kind:
 * each property is a member of the type (optional unless `required`), arrays have their items'
 * type, maps their values', `nullable` admits `null`, `x-kubernetes-int-or-string` is
 * `number | string`, an enum is its literals, `x-kubernetes-preserve-unknown-fields` objects take
 * any key, `x-kubernetes-embedded-resource` ones have `apiVersion`, `kind` and `metadata`.
 *
 * @param program a program over the generated folder `dir`.
 */
export function schemaVsType(program: ts.Program, dir: string, crds: readonly Crd[]): WalkResult {
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  let checked = 0;
  for (const crd of crds) {
    for (const version of crd.spec.versions.filter((v) => v.served)) {
      const where = `${crd.spec.names.kind} ${version.name}`;
      const file = program.getSourceFile(join(dir, crd.spec.group, version.name, `${crd.spec.names.plural}.ts`));
      const symbol = file && checker.getSymbolAtLocation(file);
      const kind = symbol && checker.getExportsOfModule(symbol).find((s) => s.name === crd.spec.names.kind);
      const resource = symbol && checker.getExportsOfModule(symbol).find((s) => s.flags & ts.SymbolFlags.Variable);
      if (kind === undefined || resource === undefined) {
        problems.push(`${where}: no interface ${crd.spec.names.kind} or no resource constant`);
        continue;
      }
      const resourceType = checker.getTypeOfSymbol(resource);
      for (const [key, value] of Object.entries({ group: crd.spec.group, version: version.name, plural: crd.spec.names.plural, kind: crd.spec.names.kind })) {
        const member = resourceType.getProperty(key);
        const literal = member && checker.getTypeOfSymbol(member);
        if (!literal?.isStringLiteral() || literal.value !== value) problems.push(`${where}: the resource constant's ${key} is not ${JSON.stringify(value)}`);
      }
      const type = checker.getDeclaredTypeOfSymbol(kind);
      const schema = version.schema?.openAPIV3Schema ?? {};
      const walk = (node: SchemaProps, nodeType: ts.Type, path: string): void => {
        checked++;
        const problem = (what: string): void => void problems.push(`${where} ${path || '(root)'}: ${what}`);
        const parts = nodeType.isUnion() ? nodeType.types : [nodeType];
        if (node.nullable === true && !parts.some((part) => part.flags & ts.TypeFlags.Null)) problem('nullable, but the type has no null');
        if (node.nullable !== true && parts.some((part) => part.flags & ts.TypeFlags.Null)) problem('not nullable, but the type has null');
        // Any JSON value (no type under preserve-unknown-fields): `unknown`, which takes null too.
        if (node.type === undefined && node.properties === undefined && node['x-kubernetes-embedded-resource'] !== true && node['x-kubernetes-int-or-string'] !== true && node.enum === undefined) {
          if (!(nodeType.flags & ts.TypeFlags.Unknown)) problem(`a node of any JSON typed ${checker.typeToString(nodeType)}`);
          return;
        }
        const type = checker.getNonNullableType(nodeType);
        const members = type.isUnion() ? type.types : [type];
        if (node.enum !== undefined) {
          for (const value of node.enum.filter((v) => v !== null)) {
            if (!members.some((member) => (member.isLiteral() && member.value === value) || (typeof value === 'boolean' && checker.typeToString(member) === String(value)))) problem(`enum value ${JSON.stringify(value)} is not in ${checker.typeToString(type)}`);
          }
          return;
        }
        if (node['x-kubernetes-int-or-string'] === true) {
          const text = checker.typeToString(type);
          if (text !== 'string | number' && text !== 'number | string') problem(`int-or-string typed ${text}`);
          return;
        }
        if (node.type === 'array') {
          const item = checker.getIndexTypeOfType(type, ts.IndexKind.Number);
          if (item === undefined) return problem(`array typed ${checker.typeToString(type)}`);
          walk(node.items ?? {}, item, `${path}[]`);
          return;
        }
        if (path === '.apiVersion' || path === '.kind') {
          const want = path === '.kind' ? crd.spec.names.kind : `${crd.spec.group}/${version.name}`;
          if (!type.isStringLiteral() || type.value !== want) problem(`typed ${checker.typeToString(type)}, not ${JSON.stringify(want)}`);
          return;
        }
        if (node.type === 'string' || node.type === 'integer' || node.type === 'number' || node.type === 'boolean') {
          const want = node.type === 'integer' ? 'number' : node.type;
          if (checker.typeToString(type) !== want) problem(`${node.type} typed ${checker.typeToString(type)}`);
          return;
        }
        const properties = Object.entries(node.properties ?? {});
        const required = new Set(node.required ?? []);
        for (const key of node['x-kubernetes-embedded-resource'] === true ? ['apiVersion', 'kind', 'metadata'] : []) {
          if (type.getProperty(key) === undefined) problem(`embedded resource without ${key}`);
        }
        for (const [key, child] of properties) {
          const member = type.getProperty(key);
          if (member === undefined) {
            problem(`no member ${key}`);
            continue;
          }
          const optional = (member.flags & ts.SymbolFlags.Optional) !== 0;
          if (optional === required.has(key)) problem(`${key} is ${optional ? 'optional' : 'required'} in the type, ${required.has(key) ? 'required' : 'optional'} in the schema`);
          // The kind's metadata is the full ObjectMeta, whatever the CRD says of it.
          if (path === '' && key === 'metadata') continue;
          const childType = checker.getTypeOfSymbol(member);
          walk(child, childType, `${path}.${key}`); // the `undefined` of `?` is passed over with null below
        }
        const open = node['x-kubernetes-preserve-unknown-fields'] === true || node.additionalProperties !== undefined;
        const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
        if (open && index === undefined) problem('takes any key, but the type has no index signature');
        if (!open && index !== undefined && properties.length > 0) problem('closed, but the type has an index signature');
        if (typeof node.additionalProperties === 'object' && properties.length === 0 && index !== undefined) walk(node.additionalProperties, index, `${path}{}`);
        if (!open && properties.length === 0 && node['x-kubernetes-embedded-resource'] !== true && checker.typeToString(type) !== 'Record<string, never>') problem(`an object whose fields are all pruned typed ${checker.typeToString(type)}`);
      };
      walk(schema, type, '');
    }
  }
  return { checked, problems };
}

/**
 * How many nodes the served versions' schemas have under `properties`, `items` and
 * `additionalProperties` (the root's `metadata`, the full ObjectMeta whatever the CRD says, not counted): what {@link schemaVsType} should
 * have checked, counted without the type checker.
 */
export function schemaNodeCount(crds: readonly Crd[]): number {
  const count = (node: SchemaProps, atRoot: boolean): number => {
    if (node.enum !== undefined || node['x-kubernetes-int-or-string'] === true) return 1;
    let n = 1;
    for (const [key, child] of Object.entries(node.properties ?? {})) n += atRoot && key === 'metadata' ? 0 : count(child, false);
    if (node.items !== undefined) n += count(node.items, false);
    if (typeof node.additionalProperties === 'object' && node.properties === undefined) n += count(node.additionalProperties, false);
    return n;
  };
  return crds.flatMap((crd) => crd.spec.versions.filter((v) => v.served)).reduce((n, version) => n + count(version.schema?.openAPIV3Schema ?? {}, true), 0);
}
