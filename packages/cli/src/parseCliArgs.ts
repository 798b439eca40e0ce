import { CliError, usageError } from './cliError.js';
import { FlagError, flagHelp, parseFlags, type FlagSpecs } from './parseFlags.js';

/** How objects are shown: kubectl's table (a live view on a terminal), with its wide columns, or one object at a time. */
export type OutputFormat = 'table' | 'wide' | 'name' | 'json' | 'yaml';

/** The flags that shape the output, shared by `watch` and `demo`. */
export interface OutputOptions {
  readonly output: OutputFormat;
  /** `--output-watch-events`: an EVENT column, or `{"type","object"}` around each object. */
  readonly watchEvents: boolean;
  /** `--no-headers`. */
  readonly noHeaders: boolean;
  /** `--no-color`; `NO_COLOR` in the environment is read by the program, not here. */
  readonly noColor: boolean;
}

/** `rx-informer watch …`: what to watch and how to show it. */
export interface WatchCommand extends OutputOptions {
  readonly command: 'watch';
  /** As typed: `pods`, `po`, `Pod`, `deployments.apps`, `widgets.example.com`. */
  readonly resource: string;
  /** A namespace; absent with `-A`, or for the kubeconfig context's namespace. */
  readonly namespace?: string;
  readonly allNamespaces: boolean;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** `--index name=jsonpath`, in order. */
  readonly indexes: readonly IndexSpec[];
  readonly metadataOnly: boolean;
  /** `--request-timeout`: give up after the server has not answered for this long, in ms; 0 (the default): never. */
  readonly requestTimeoutMs: number;
  readonly kubeconfig?: string;
  readonly context?: string;
  /** `--server`: the API server's address, instead of (or without) the kubeconfig's cluster. */
  readonly server?: string;
}

/** `rx-informer demo …`: the watch against an in-process API server with churn. */
export interface DemoCommand extends OutputOptions {
  readonly command: 'demo';
  /** Pods seeded (default 5 000). */
  readonly pods: number;
  /** Churn events per second (default 300). */
  readonly rate: number;
  /** Stop after this many seconds and exit 0; absent: until Ctrl-C. */
  readonly seconds?: number;
}

/** `rx-informer crd-types …`: TypeScript types from CustomResourceDefinitions. */
export interface CrdTypesCommand {
  readonly command: 'crd-types';
  /** CRD files and folders. */
  readonly paths: readonly string[];
  /** Also the CRDs of the live cluster (`--cluster`, or implied by `--kubeconfig`/`--context`). */
  readonly cluster: boolean;
  /** `--group`, repeatable: only CRDs of these groups; empty: all. */
  readonly groups: readonly string[];
  /** `--out`: the folder to write into (default `crd-types`). */
  readonly out: string;
  /** `--import-from`: where the resource constants take `ListWatchResource` from; `null` (`--import-from ''`): nowhere. */
  readonly importFrom: string | null;
  readonly kubeconfig?: string;
  readonly context?: string;
}

/** The commands `rx-informer help <command>` knows. */
export type HelpTopic = 'watch' | 'demo' | 'crd-types';

/** `rx-informer help [command]`, `--help`, `-h`, or no arguments at all. */
export interface HelpCommand {
  readonly command: 'help';
  /** The command asked about; absent: the program. */
  readonly topic?: HelpTopic;
}

/** `rx-informer --version`. */
export interface VersionCommand {
  readonly command: 'version';
}

/** A parsed command line. */
export type CliCommand = WatchCommand | DemoCommand | CrdTypesCommand | HelpCommand | VersionCommand;

/** One `--index name=jsonpath`. */
export interface IndexSpec {
  readonly name: string;
  readonly path: string;
}

const outputFlags = {
  output: { type: 'string', short: 'o', value: 'format', help: 'wide (more columns), name, json (an object a line) or yaml (documents); default: the table' },
  'output-watch-events': { type: 'boolean', help: 'Show changes as events: an EVENT column (ADDED, MODIFIED, DELETED), or {"type","object"} with -o json|yaml' },
  'no-headers': { type: 'boolean', help: 'Leave out the header line of the table' },
  'no-color': { type: 'boolean', help: 'No colours on a terminal (so does a non-empty NO_COLOR)' },
} as const satisfies FlagSpecs;

/** The flags of `rx-informer watch`, in `--help` order. */
export const watchFlags = {
  'all-namespaces': { type: 'boolean', short: 'A', help: 'Every namespace (wins over --namespace, as with kubectl)' },
  namespace: { type: 'string', short: 'n', value: 'namespace', help: "Only this namespace (default: the context's)" },
  selector: { type: 'string', short: 'l', value: 'selector', help: 'Label selector, e.g. app=web,tier!=db' },
  'field-selector': { type: 'string', value: 'selector', help: 'Field selector, e.g. spec.nodeName=node-1' },
  ...outputFlags,
  watch: { type: 'boolean', short: 'w', help: 'Accepted, as kubectl get takes it: watch always watches' },
  index: { type: 'strings', value: 'name=jsonpath', help: 'Index by a JSONPath (.spec.nodeName, [*], [\'key\'], [?(@.type=="Ready")]); shows the counts' },
  'metadata-only': { type: 'boolean', help: 'Ask for metadata only (PartialObjectMetadata): NAME and AGE' },
  'request-timeout': { type: 'string', value: 'duration', help: 'Give up (exit 1) when the server has not answered for this long, e.g. 30s, 2m (default 0: keep trying)' },
  kubeconfig: { type: 'string', value: 'path', help: 'Kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)' },
  context: { type: 'string', value: 'name', help: 'Kubeconfig context (default: the current one)' },
  server: { type: 'string', short: 's', value: 'url', help: "The API server's address (overrides the kubeconfig's; without a kubeconfig: no credentials)" },
  help: { type: 'boolean', short: 'h', help: 'This help' },
} as const satisfies FlagSpecs;

/** The flags of `rx-informer demo`, in `--help` order. */
export const demoFlags = {
  pods: { type: 'string', value: 'n', help: 'Pods to seed (default 5000)' },
  rate: { type: 'string', value: 'n', help: 'Churn: changes per second (default 300)' },
  seconds: { type: 'string', value: 'n', help: 'Run this long, then exit 0 (default: until Ctrl-C)' },
  ...outputFlags,
  help: { type: 'boolean', short: 'h', help: 'This help' },
} as const satisfies FlagSpecs;

/** The flags of `rx-informer crd-types`, in `--help` order. */
export const crdTypesFlags = {
  out: { type: 'string', value: 'dir', help: 'Write the types into this folder (default crd-types)' },
  group: { type: 'strings', value: 'group', help: 'Only the CRDs of this API group (repeatable), e.g. gateway.networking.k8s.io' },
  cluster: { type: 'boolean', help: 'Read the CRDs of the live cluster too (implied by --kubeconfig or --context)' },
  'import-from': { type: 'string', value: 'module', help: "Where the resource constants take ListWatchResource from (default rx-informer; '' for none)" },
  kubeconfig: { type: 'string', value: 'path', help: 'Kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)' },
  context: { type: 'string', value: 'name', help: 'Kubeconfig context (default: the current one)' },
  help: { type: 'boolean', short: 'h', help: 'This help' },
} as const satisfies FlagSpecs;

/**
 * The text `--help` prints: the program's, or a command's with every flag.
 *
 * @param topic the command (absent: the program).
 */
export function helpText(topic?: HelpTopic): string {
  if (topic === 'crd-types') {
    return `Write TypeScript types for CustomResourceDefinitions: for each served version, the kind's interface
(spec, status and every nested object, with the schema's descriptions and defaults as TSDoc) and a
ListWatchResource constant named after the plural, for listWatch and informer. Reads CRD YAML or JSON
files, folders of them, and/or the CRDs of the live cluster. Writes <out>/<group>/<version>/<plural>.ts,
an index.ts per group and version, and <out>/meta.ts (ObjectMeta).

Usage:
  rx-informer crd-types <file|folder>... [flags]
  rx-informer crd-types --cluster [flags]

Examples:
  rx-informer crd-types config/crd/standard --out src/generated
  rx-informer crd-types --cluster --group cert-manager.io --out src/generated

  import { type Gateway, gateways } from './generated/gateway.networking.k8s.io/v1/index.js';
  const gws = informer<Json<Gateway>>(listWatch(kubeConfig, gateways));

Options:
${flagHelp(crdTypesFlags)}
`;
  }
  if (topic === 'watch') {
    return `List+Watch a resource with an informer and show it as kubectl get -w does. On a terminal: a table that
updates in place (newest changes first, + added, ~ updated, - deleted) with the sync progress, the event
rate, the watch state and index summaries. On a pipe: the table, then a row per change; progress and
errors go to stderr.

Usage:
  rx-informer watch <resource> [flags]

Examples:
  rx-informer watch pods -A --index node=.spec.nodeName
  rx-informer watch deployments.apps -n prod -l app=web -o wide
  rx-informer watch cm -A -o json --output-watch-events | jq -c '[.type, .object.metadata.name]'

Options:
${flagHelp(watchFlags)}
`;
  }
  if (topic === 'demo') {
    return `Start a Kubernetes API server in this process, seed it with namespaces, nodes and pods, keep it busy
with rolling updates, restarts and deletes, and run watch pods -A --index node=.spec.nodeName against it.
No cluster needed.

Usage:
  rx-informer demo [flags]

Options:
${flagHelp(demoFlags)}
`;
  }
  return `rx-informer: a Kubernetes informer in a terminal.

Usage:
  rx-informer watch <resource> [flags]   List+Watch a resource and show it live (like kubectl get -w;
                                         rx-informer get <resource> -w is the same)
  rx-informer demo [flags]               The same against an in-process API server with churn
  rx-informer crd-types <files...>       TypeScript types and resource constants from CRDs
  rx-informer help [command]             Help for a command
  rx-informer --version                  The version

Run 'rx-informer <command> --help' for a command's flags.
`;
}

/**
 * Parses the arguments after the program name (`process.argv.slice(2)`), with kubectl's flag rules
 * and wording.
 *
 * ## Example
 * ```ts
 * parseCliArgs(['watch', 'po', '-A', '--index', 'node=.spec.nodeName']);
 * // → { command: 'watch', resource: 'po', allNamespaces: true, indexes: [{ name: 'node', path: '.spec.nodeName' }], … }
 * ```
 *
 * @param argv the arguments.
 * @returns the command.
 * @throws {CliError} with exit code 2 for anything it cannot make sense of: `error: …` and the help to see.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
      return { command: 'help' };
    case 'help':
      if (rest[0] === 'watch' || rest[0] === 'demo' || rest[0] === 'crd-types') return { command: 'help', topic: rest[0] };
      if (rest.length > 0) throw usageError(`unknown command ${JSON.stringify(rest[0])} for "rx-informer"`);
      return { command: 'help' };
    case '--version':
    case '-v':
    case 'version':
      return { command: 'version' };
    case 'watch':
      return parseWatch(rest);
    case 'get':
      // kubectl's habit: `get -w` is what watch does; a plain `get` lists once, which this does not.
      if (rest.some((arg) => /^(-w|--watch)(=(t|T|true|TRUE|True|1))?$/.test(arg))) return parseWatch(rest);
      throw usageError(`rx-informer lists and then watches, as kubectl get -w does: add -w, or run rx-informer watch ${rest.join(' ')}`.trimEnd(), 'watch');
    case 'demo':
      return parseDemo(rest);
    case 'crd-types':
      return parseCrdTypes(rest);
    default:
      throw usageError(`unknown command ${JSON.stringify(command)} for "rx-informer"`);
  }
}

function parseWatch(args: readonly string[]): WatchCommand | HelpCommand {
  const { flags, positionals } = parse(args, watchFlags, 'watch');
  if (flags.help) return { command: 'help', topic: 'watch' };
  if (positionals.length === 0) throw usageError('you must specify the type of resource to watch, e.g. rx-informer watch pods', 'watch');
  if (positionals.length > 1) throw usageError(`watch takes one resource, got ${positionals.map((p) => JSON.stringify(p)).join(' ')}`, 'watch');
  if (args.some((arg) => /^(-w|--watch)=(0|f|F|false|FALSE|False)$/.test(arg))) throw usageError('rx-informer watch always watches: --watch=false is not supported (kubectl get lists once)', 'watch');
  return {
    command: 'watch',
    resource: positionals[0]!,
    ...(flags.namespace !== undefined && !flags['all-namespaces'] ? { namespace: nonEmpty('--namespace', flags.namespace) } : {}),
    allNamespaces: flags['all-namespaces'],
    ...(flags.selector !== undefined ? { labelSelector: flags.selector } : {}),
    ...(flags['field-selector'] !== undefined ? { fieldSelector: flags['field-selector'] } : {}),
    indexes: flags.index.map(parseIndexSpec),
    metadataOnly: flags['metadata-only'],
    requestTimeoutMs: flags['request-timeout'] === undefined ? 0 : parseDuration(flags['request-timeout']),
    ...outputOptions(flags),
    ...(flags.kubeconfig !== undefined ? { kubeconfig: nonEmpty('--kubeconfig', flags.kubeconfig) } : {}),
    ...(flags.context !== undefined ? { context: nonEmpty('--context', flags.context) } : {}),
    ...(flags.server !== undefined ? { server: nonEmpty('--server', flags.server) } : {}),
  };
}

function parseDemo(args: readonly string[]): DemoCommand | HelpCommand {
  const { flags, positionals } = parse(args, demoFlags, 'demo');
  if (flags.help) return { command: 'help', topic: 'demo' };
  if (positionals.length > 0) throw usageError(`demo takes no arguments, got ${JSON.stringify(positionals[0])}`, 'demo');
  return {
    command: 'demo',
    pods: flags.pods === undefined ? 5000 : count('--pods', flags.pods, 0, 200_000),
    rate: flags.rate === undefined ? 300 : count('--rate', flags.rate, 0, 20_000),
    ...(flags.seconds !== undefined ? { seconds: positive('--seconds', flags.seconds) } : {}),
    ...outputOptions(flags),
  };
}

function parseCrdTypes(args: readonly string[]): CrdTypesCommand | HelpCommand {
  const { flags, positionals } = parse(args, crdTypesFlags, 'crd-types');
  if (flags.help) return { command: 'help', topic: 'crd-types' };
  const cluster = flags.cluster || flags.kubeconfig !== undefined || flags.context !== undefined;
  if (positionals.length === 0 && !cluster) throw usageError('give CRD files or folders, or --cluster for the CRDs of the live cluster, e.g. rx-informer crd-types config/crd', 'crd-types');
  return {
    command: 'crd-types',
    paths: positionals,
    cluster,
    groups: flags.group,
    out: flags.out === undefined ? 'crd-types' : nonEmpty('--out', flags.out, 'crd-types'),
    importFrom: flags['import-from'] === undefined ? 'rx-informer' : flags['import-from'] === '' ? null : flags['import-from'],
    ...(flags.kubeconfig !== undefined ? { kubeconfig: nonEmpty('--kubeconfig', flags.kubeconfig, 'crd-types') } : {}),
    ...(flags.context !== undefined ? { context: nonEmpty('--context', flags.context, 'crd-types') } : {}),
  };
}

/** `name=jsonpath`; the name is what the summary shows. */
export function parseIndexSpec(text: string): IndexSpec {
  const eq = text.indexOf('=');
  const name = eq > 0 ? text.slice(0, eq).trim() : '';
  const path = eq > 0 ? text.slice(eq + 1).trim() : '';
  if (name === '' || path === '') throw usageError(`--index wants <name>=<jsonpath>, e.g. node=.spec.nodeName; got ${JSON.stringify(text)}`, 'watch');
  return { name, path };
}

/**
 * A `--request-timeout` as kubectl takes it: `0`, whole seconds (`30`), or a Go duration (`1m30s`, `500ms`).
 *
 * @returns milliseconds.
 */
export function parseDuration(text: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ns|us|\u00b5s|ms|s|m|h)/g)];
  if (trimmed === '' || parts.map((p) => p[0]).join('') !== trimmed) {
    throw new CliError('error: Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)', { exitCode: 2 });
  }
  return Math.round(parts.reduce((ms, [, n, unit]) => ms + Number(n) * units[unit!]!, 0));
}

function outputOptions(flags: { readonly output: string | undefined; readonly 'output-watch-events': boolean; readonly 'no-headers': boolean; readonly 'no-color': boolean }): OutputOptions {
  return { output: parseOutput(flags.output), watchEvents: flags['output-watch-events'], noHeaders: flags['no-headers'], noColor: flags['no-color'] };
}

function parse<S extends FlagSpecs>(args: readonly string[], specs: S, command: string): ReturnType<typeof parseFlags<S>> {
  try {
    return parseFlags(args, specs);
  } catch (error) {
    if (error instanceof FlagError) throw usageError(error.message, command);
    throw error;
  }
}

function parseOutput(output: string | undefined): OutputFormat {
  if (output === undefined || output === '' || output === 'table') return 'table';
  if (output === 'wide' || output === 'name' || output === 'json' || output === 'yaml') return output;
  throw new CliError(`error: unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: json,name,wide,yaml`, { exitCode: 2 });
}

function count(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max) throw usageError(`invalid argument ${JSON.stringify(text)} for "${flag}" flag: a whole number from ${min} to ${max}`, 'demo');
  return n;
}

function positive(flag: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) throw usageError(`invalid argument ${JSON.stringify(text)} for "${flag}" flag: a positive number of seconds`, 'demo');
  return n;
}

function nonEmpty(flag: string, text: string, command = 'watch'): string {
  if (text.trim() === '') throw usageError(`${flag} must not be empty`, command);
  return text;
}
