import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { CliError } from './cliError.js';

/** `rx-informer watch …`: what to watch and how to show it. */
export interface WatchCommand {
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
  /** `table` (a live view on a terminal, plain lines otherwise) or `json` (JSON lines). */
  readonly output: 'table' | 'json';
  readonly kubeconfig?: string;
  readonly context?: string;
}

/** `rx-informer demo …`: the watch against an in-process API server with churn. */
export interface DemoCommand {
  readonly command: 'demo';
  /** Pods seeded (default 5 000). */
  readonly pods: number;
  /** Churn events per second (default 300). */
  readonly rate: number;
  /** Stop after this many seconds and exit 0; absent: until Ctrl-C. */
  readonly seconds?: number;
  readonly output: 'table' | 'json';
}

/** `rx-informer help`, `--help`, `-h`, or no arguments at all. */
export interface HelpCommand {
  readonly command: 'help';
}

/** `rx-informer --version`. */
export interface VersionCommand {
  readonly command: 'version';
}

/** A parsed command line. */
export type CliCommand = WatchCommand | DemoCommand | HelpCommand | VersionCommand;

/** One `--index name=jsonpath`. */
export interface IndexSpec {
  readonly name: string;
  readonly path: string;
}

/** The usage text printed by `rx-informer help`. */
export const usage = `Usage:
  rx-informer watch <resource> [-n <namespace> | -A] [-l <selector>] [--field-selector <selector>]
                    [--index <name>=<jsonpath>]... [--metadata-only] [-o json]
                    [--kubeconfig <path>] [--context <name>]
  rx-informer demo [--pods <n>] [--rate <events/s>] [--seconds <n>] [-o json]

  watch   List+Watch <resource> (pods, po, Pod, deployments.apps, widgets.example.com) with an
          informer and show it live: a table that updates in place, the initial-sync progress,
          the event rate, the watch state and index summaries. -o json streams changes as JSON lines.
  demo    The same, against an in-process Kubernetes API server seeded with pods, namespaces and
          nodes and kept busy with rolling updates, deletes and creates. No cluster needed.

Options:
  -n, --namespace <ns>        Only this namespace (default: the context's namespace)
  -A, --all-namespaces        Every namespace
  -l, --selector <selector>   Label selector, e.g. app=web,tier!=db
      --field-selector <sel>  Field selector, e.g. spec.nodeName=node-1
      --index <name>=<path>   Index by a JSONPath (.spec.nodeName, [0], [*], ['key']); shows counts
      --metadata-only         Ask for metadata only (PartialObjectMetadata)
  -o, --output json           JSON lines: {"type":"add"|"update"|"delete","key":…,"object":…}
      --kubeconfig <path>     Kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)
      --context <name>        Kubeconfig context (default: the current one)
      --pods <n>              demo: pods to seed (default 5000)
      --rate <n>              demo: churn events per second (default 300)
      --seconds <n>           demo: run this long, then exit 0 (default: until Ctrl-C)
  -h, --help                  This text
`;

const watchOptions = {
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A', default: false },
  selector: { type: 'string', short: 'l' },
  'field-selector': { type: 'string' },
  index: { type: 'string', multiple: true, default: [] as string[] },
  'metadata-only': { type: 'boolean', default: false },
  output: { type: 'string', short: 'o' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig;

const demoOptions = {
  pods: { type: 'string' },
  rate: { type: 'string' },
  seconds: { type: 'string' },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig;

/**
 * Parses the arguments after the program name (`process.argv.slice(2)`).
 *
 * ## Example
 * ```ts
 * parseCliArgs(['watch', 'po', '-A', '--index', 'node=.spec.nodeName']);
 * // → { command: 'watch', resource: 'po', allNamespaces: true, indexes: [{ name: 'node', path: '.spec.nodeName' }], … }
 * ```
 *
 * @param argv the arguments.
 * @returns the command.
 * @throws {CliError} with exit code 2 for anything it cannot make sense of, worded for the user.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '-h':
    case '--help':
      return { command: 'help' };
    case '--version':
    case '-v':
    case 'version':
      return { command: 'version' };
    case 'watch':
      return parseWatch(rest);
    case 'demo':
      return parseDemo(rest);
    default:
      throw usageError(`unknown command ${JSON.stringify(command)}; expected watch, demo or help`);
  }
}

function parseWatch(args: readonly string[]): WatchCommand | HelpCommand {
  const { values, positionals } = parse(args, watchOptions);
  if (values.help) return { command: 'help' };
  if (positionals.length === 0) throw usageError('watch needs a resource, e.g. rx-informer watch pods');
  if (positionals.length > 1) throw usageError(`watch takes one resource, got ${positionals.map((p) => JSON.stringify(p)).join(' ')}`);
  if (values['all-namespaces'] && values.namespace !== undefined) throw usageError('use either -n <namespace> or -A, not both');
  return {
    command: 'watch',
    resource: positionals[0]!,
    ...(values.namespace !== undefined ? { namespace: nonEmpty('--namespace', values.namespace) } : {}),
    allNamespaces: values['all-namespaces'],
    ...(values.selector !== undefined ? { labelSelector: values.selector } : {}),
    ...(values['field-selector'] !== undefined ? { fieldSelector: values['field-selector'] } : {}),
    indexes: values.index.map(parseIndexSpec),
    metadataOnly: values['metadata-only'],
    output: parseOutput(values.output),
    ...(values.kubeconfig !== undefined ? { kubeconfig: nonEmpty('--kubeconfig', values.kubeconfig) } : {}),
    ...(values.context !== undefined ? { context: nonEmpty('--context', values.context) } : {}),
  };
}

function parseDemo(args: readonly string[]): DemoCommand | HelpCommand {
  const { values, positionals } = parse(args, demoOptions);
  if (values.help) return { command: 'help' };
  if (positionals.length > 0) throw usageError(`demo takes no arguments, got ${JSON.stringify(positionals[0])}`);
  return {
    command: 'demo',
    pods: values.pods === undefined ? 5000 : count('--pods', values.pods, 0, 200_000),
    rate: values.rate === undefined ? 300 : count('--rate', values.rate, 0, 20_000),
    ...(values.seconds !== undefined ? { seconds: positive('--seconds', values.seconds) } : {}),
    output: parseOutput(values.output),
  };
}

/** `name=jsonpath`; the name is what the summary shows. */
export function parseIndexSpec(text: string): IndexSpec {
  const eq = text.indexOf('=');
  const name = eq > 0 ? text.slice(0, eq).trim() : '';
  const path = eq > 0 ? text.slice(eq + 1).trim() : '';
  if (name === '' || path === '') throw usageError(`--index wants <name>=<jsonpath>, e.g. node=.spec.nodeName; got ${JSON.stringify(text)}`);
  return { name, path };
}

function parse<O extends ParseArgsOptionsConfig>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true as const, strict: true as const });
  } catch (error) {
    // node:util words these well ("Unknown option '--foo'"); keep its text, drop its hints about '--'.
    const message = (error as Error).message.split('. To specify a positional')[0]!;
    throw usageError(message.replace(/\.$/, ''));
  }
}

function parseOutput(output: string | undefined): 'table' | 'json' {
  if (output === undefined || output === 'table' || output === 'wide') return 'table';
  if (output === 'json' || output === 'jsonl') return 'json';
  throw usageError(`unsupported output ${JSON.stringify(output)}; use -o json (JSON lines) or leave it out for the table`);
}

function count(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max) throw usageError(`${flag} wants a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return n;
}

function positive(flag: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) throw usageError(`${flag} wants a positive number of seconds, got ${JSON.stringify(text)}`);
  return n;
}

function nonEmpty(flag: string, text: string): string {
  if (text.trim() === '') throw usageError(`${flag} must not be empty`);
  return text;
}

function usageError(message: string): CliError {
  return new CliError(`${message} (see rx-informer --help)`, { exitCode: 2 });
}
