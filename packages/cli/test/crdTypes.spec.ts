/*
 * crd-types, shape by shape, on fixtures/widgets.example.com.yaml (a CRD with one field for each
 * shape the generator knows): the text it writes, what the types accept and refuse (checked by the
 * compiler through @ts-expect-error lines, which fail when a refusal goes missing), the walk of
 * schema beside type, and the types in use with the library's own informer and listWatch.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { crdsInText, readCrds } from '../src/crdTypes/readCrds.js';
import { generateCrdTypes, type GeneratedFile } from '../src/crdTypes/generateCrdTypes.js';
import { tsdoc } from '../src/crdTypes/tsdoc.js';
import { valueName } from '../src/crdTypes/typeNames.js';
import { compileGenerated, removeGenerated, schemaNodeCount, schemaVsType, writeGenerated } from './crdTypeCheck.js';

const fixture = fileURLToPath(new URL('fixtures/widgets.example.com.yaml', import.meta.url));
const crds = await readCrds([fixture]);
const files = generateCrdTypes(crds);
const text = (path: string): string => files.find((file) => file.path === path)?.text ?? '';
const v1 = text('example.com/v1/widgets.ts');

test('reads the CRDs of a multi-document file, passing over what is not a CRD', (t) => {
  t.deepEqual(
    crds.map((crd) => crd.metadata?.name),
    ['widgets.example.com'],
  );
});

test('a file per served version, an index per group and version, and meta.ts; none for a version that is not served', (t) => {
  t.deepEqual(
    files.map((file) => file.path),
    ['meta.ts', 'example.com/v1/widgets.ts', 'example.com/v1/index.ts', 'example.com/v1alpha1/widgets.ts', 'example.com/v1alpha1/index.ts'],
  );
  t.true(text('example.com/v1/index.ts').includes("export * from './widgets.js';"));
});

test('the kind: literal apiVersion and kind, the full ObjectMeta, spec required as the schema says, status', (t) => {
  t.true(v1.includes('export interface Widget {\n  apiVersion?: "example.com/v1";\n  kind?: "Widget";\n  metadata?: ObjectMeta;\n'));
  t.true(v1.includes('  spec: WidgetSpec;\n'));
  t.true(v1.includes('  status?: WidgetStatus;\n'));
  t.true(v1.includes("import type { ObjectMeta } from '../../meta.js';"));
  t.true(text('meta.ts').includes('ownerReferences?: OwnerReference[];'));
});

test('each shape of a structural schema as its type', (t) => {
  const members = [
    '  replicas?: number;', // integer
    '  port?: number | string;', // x-kubernetes-int-or-string
    '  mode: "Fast" | "Slow";', // enum, required
    '  level?: 1 | 2 | 3;', // integer enum
    '  note?: string | null;', // nullable
    '  tags?: string[];',
    '  matrix?: number[][];',
    '  labels?: { [key: string]: string };', // additionalProperties
    '  ports?: { [key: string]: WidgetSpecPortsValue };', // additionalProperties of objects
    '  config?: { [key: string]: unknown };', // preserve-unknown-fields alone
    '  extra?: WidgetSpecExtra;',
    '  template?: WidgetSpecTemplate;', // embedded resource
    '  anything?: unknown;', // preserve-unknown-fields without a type
    '  empty?: Record<string, never>;', // every field pruned
    '  steps?: WidgetSpecSteps[] | null;', // nullable array of objects
    '  after?: "first" | "last" | null;', // nullable enum, null once
    '  choice?: WidgetSpecChoice;', // oneOf/anyOf/not only validate
    '  "weird-key"?: string;',
    '  $ref?: string;',
  ];
  for (const member of members) t.true(v1.includes(`\n${member}\n`), member);
  t.true(v1.includes('export interface WidgetSpecExtra {\n  name?: string;\n  [key: string]: unknown;\n}'));
  t.true(v1.includes('export interface WidgetSpecTemplate {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  [key: string]: unknown;\n}'));
  t.true(v1.includes('export interface WidgetSpecChoice {\n  a?: string;\n  b?: string;\n}'));
});

test('descriptions and defaults as TSDoc, escaped so that nothing in a description closes the comment or reads as a tag', (t) => {
  t.true(v1.includes('  /**\n   * How many.\n   *\n   * @defaultValue `1`\n   */\n  replicas?: number;'));
  t.true(v1.includes('   * @defaultValue `"Fast"`\n   */\n  mode:'));
  t.true(v1.includes('   * A text with a *\\/ in it,\n   * \\@param at the start of a line and {\\@link Nothing}.\n'));
  t.true(v1.includes('   * Deprecated: use note.\n   *\n   * @deprecated\n   */\n  comment?: string;'));
  t.is(tsdoc({ default: { a: '`x`' } }, ''), '/**\n * @defaultValue ``{"a":"`x`"}``\n */\n');
  t.is(tsdoc({}, '  '), '');
});

test('the resource constant: group, version, plural and kind, checked against ListWatchResource; a deprecated version says so', (t) => {
  t.true(v1.includes('export const widgets = { group: "example.com", version: "v1", plural: "widgets", kind: "Widget" } as const satisfies ListWatchResource;'));
  t.true(v1.includes("import type { ListWatchResource } from 'rx-informer';"));
  const alpha = text('example.com/v1alpha1/widgets.ts');
  t.true(alpha.includes(' * @deprecated example.com/v1alpha1 Widget is deprecated; use example.com/v1\n */\nexport interface Widget {'));
  t.true(alpha.includes('  [key: string]: unknown;\n}'), 'a version whose schema keeps every field');
  const bare = generateCrdTypes(crds, { importFrom: null }).find((file) => file.path === 'example.com/v1/widgets.ts')!.text;
  t.false(bare.includes("from 'rx-informer'"));
  t.true(bare.includes('kind: "Widget" } as const;\n'));
});

test('names: PascalCase paths, numbered when two paths spell the same, values that are not reserved words', (t) => {
  const [crd] = crdsInText(
    `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: defaults.example.com }
spec:
  group: example.com
  scope: Cluster
  names: { kind: Thing, plural: default }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              fooBar: { type: object, properties: { x: { type: string } } }
              foo: { type: object, properties: { bar: { type: object, properties: { y: { type: string } } } } }
`,
    'inline',
  );
  const module = generateCrdTypes([crd!])[1]!.text;
  t.true(module.includes('export interface ThingSpecFooBar {\n  x?: string;\n}'));
  t.true(module.includes('export interface ThingSpecFooBar2 {\n  y?: string;\n}'));
  t.true(module.includes('export const defaultResource = {'));
  t.true(module.includes('cluster-scoped'));
  t.is(valueName('backend-tls-policies'), 'backendTlsPolicies');
});

test('refuses v1beta1 CRDs, two different CRDs of one name, and paths with no CRD', async (t) => {
  t.throws(() => crdsInText('apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: { name: old.example.com }\nspec: {}\n', 'old.yaml'), {
    message: 'old.yaml: old.example.com is apiextensions.k8s.io/v1beta1; only apiextensions.k8s.io/v1 is read',
  });
  t.throws(() => crdsInText('a: [', 'bad.yaml'), { message: /^bad\.yaml:1: / });
  const changed = { ...crds[0]!, spec: { ...crds[0]!.spec, scope: 'Cluster' as const } };
  t.throws(() => generateCrdTypes([crds[0]!, changed]), { message: 'two different CustomResourceDefinitions named widgets.example.com: give one of them' });
  t.is(generateCrdTypes([crds[0]!, structuredClone(crds[0]!)]).length, files.length, 'the same CRD twice is one');
  await t.throwsAsync(readCrds([fileURLToPath(new URL('.', import.meta.url)) + 'no-such-dir']), { message: /^no such file or folder: / });
  await t.throwsAsync(readCrds([fileURLToPath(new URL('../package.json', import.meta.url))]), { message: /^no CustomResourceDefinition found in .*package\.json$/ });
  await t.throwsAsync(readCrds([fileURLToPath(new URL('crdTypeCheck.ts', import.meta.url))]), { message: /crdTypeCheck\.ts:1: / });
});

/** Uses of the generated types that must compile, and misuses the compiler must refuse (each `@ts-expect-error` is an error when nothing is refused). */
const uses: GeneratedFile = {
  path: 'uses.ts',
  text: `import { type Widget, widgets } from './example.com/v1/index.js';
import type { Widget as WidgetAlpha } from './example.com/v1alpha1/index.js';

export const ok: Widget = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }] },
  spec: {
    mode: 'Fast', port: 'http', level: 2, note: null, tags: ['a'], matrix: [[1]], labels: { a: 'b' },
    ports: { web: { number: 80, protocol: 'TCP' } }, config: { any: { thing: [1] } }, extra: { name: 'x', more: true },
    template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } },
    anything: [1, 'two'], empty: {}, steps: null, choice: { a: 'x' }, 'weird-key': 'k', $ref: 'r',
  },
  status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
};
export const port80: Widget['spec']['port'] = 80;
export const alpha: WidgetAlpha = { apiVersion: 'example.com/v1alpha1', kind: 'Widget', spec: { anything: 1 } };
export const resource: { readonly group: 'example.com'; readonly version: 'v1'; readonly plural: 'widgets'; readonly kind: 'Widget' } = widgets;

// @ts-expect-error not one of the enum's values
export const medium: Widget['spec']['mode'] = 'Medium';
// @ts-expect-error int-or-string takes no boolean
export const truePort: Widget['spec']['port'] = true;
// @ts-expect-error mode is required
export const noMode: Widget['spec'] = {};
// @ts-expect-error a closed object takes no other field
export const unknownField: Widget['spec'] = { mode: 'Fast', nope: 1 };
// @ts-expect-error an object whose fields are all pruned takes none
export const notEmpty: NonNullable<Widget['spec']['empty']> = { a: 1 };
// @ts-expect-error not nullable
export const nullTags: Widget['spec']['tags'] = null;
// @ts-expect-error the kind is a literal
export const otherKind: Widget['kind'] = 'Gadget';
// @ts-expect-error the apiVersion is this version's
export const otherVersion: Widget['apiVersion'] = 'example.com/v1alpha1';
// @ts-expect-error map values are typed
export const badPort: NonNullable<Widget['spec']['ports']>[string] = { number: '80' };
`,
};

test('the types compile strictly (skipLibCheck off), take what the schema takes and refuse what it refuses', async (t) => {
  const dir = await writeGenerated(files, [uses]);
  try {
    const { problems } = compileGenerated(dir, [...files, uses]);
    t.deepEqual(problems, []);
  } finally {
    await removeGenerated(dir);
  }
});

test('every node of the schema is in the type, and the walk finds a member that is missing or typed otherwise', async (t) => {
  const dir = await writeGenerated(files);
  try {
    const { program } = compileGenerated(dir, files);
    const walked = schemaVsType(program, dir, crds);
    t.deepEqual(walked.problems, []);
    t.is(walked.checked, schemaNodeCount(crds));
    t.true(walked.checked >= 40, `${walked.checked} nodes`);
  } finally {
    await removeGenerated(dir);
  }
  // The same walk over types with three faults: a member gone, an enum value gone, a required member made optional.
  const broken = files.map((file) =>
    file.path === 'example.com/v1/widgets.ts'
      ? { ...file, text: file.text.replace('  level?: 1 | 2 | 3;\n', '').replace('"Fast" | "Slow"', '"Fast"').replace('  number: number;', '  number?: number;') }
      : file,
  );
  const brokenDir = await writeGenerated(broken);
  try {
    const { program } = compileGenerated(brokenDir, broken);
    t.deepEqual(schemaVsType(program, brokenDir, crds).problems, [
      'Widget v1 .spec.mode: enum value "Slow" is not in "Fast"',
      'Widget v1 .spec: no member level',
      'Widget v1 .spec.ports{}: number is optional in the type, required in the schema',
    ]);
  } finally {
    await removeGenerated(brokenDir);
  }
});

test('in use with the library: informer<Json<Widget>>(listWatch(kubeConfig, widgets)) type-checks with the project\'s options', async (t) => {
  const use: GeneratedFile = {
    path: 'informer.ts',
    text: `import { KubeConfig } from '@kubernetes/client-node';
import { informer, listWatch, type Json } from 'rx-informer';
import { type Widget, widgets } from './example.com/v1/index.js';

const kubeConfig = new KubeConfig();
const all = informer<Json<Widget>>(listWatch(kubeConfig, widgets));
const inProd = informer<Json<Widget>>(listWatch(kubeConfig, { ...widgets, namespace: 'prod' }));
export const snapshots = all.snapshots$;
export const prod = inProd.changes$;
`,
  };
  const dir = await writeGenerated(files, [use]);
  try {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const config = ts.readConfigFile(`${root}tsconfig.json`, (path) => ts.sys.readFile(path));
    const options = { ...ts.parseJsonConfigFileContent(config.config, ts.sys, root).options, noEmit: true };
    const { problems } = compileGenerated(dir, [use], options);
    t.deepEqual(problems, []);
  } finally {
    await removeGenerated(dir);
  }
});
