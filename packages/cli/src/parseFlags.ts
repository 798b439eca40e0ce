/** One flag of a command: its names, its kind of value, and its line in `--help`. */
export interface FlagSpec {
  /** `string` takes a value, `strings` takes one each time it is given, `boolean` takes none (or `=true`/`=false`). */
  readonly type: 'string' | 'strings' | 'boolean';
  /** One letter: `-n`. */
  readonly short?: string;
  /** What the value is, for `--help`: `--namespace <namespace>`. */
  readonly value?: string;
  /** One line for `--help`. */
  readonly help: string;
}

/** The flags of a command, by long name. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** What {@link parseFlags} gives for each flag: booleans default to false, strings to undefined, repeatable ones to `[]`. */
export type FlagValues<S extends FlagSpecs> = {
  readonly [K in keyof S]: S[K]['type'] extends 'boolean' ? boolean : S[K]['type'] extends 'strings' ? readonly string[] : string | undefined;
};

/** A command line that does not fit the flags, worded as kubectl (its pflag library) words it. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

/**
 * Parses flags the way kubectl does (spf13/pflag): `--name value`, `--name=value`, `-n value`,
 * `-nvalue`, `-n=value`, clustered booleans (`-Aw`), `--flag=false`, and `--` ending the flags. A
 * flag that takes a value takes the next argument whatever it looks like (`-n -A` is the namespace
 * `-A`). Anything else is a positional argument, wherever it stands.
 *
 * ## Example
 * ```ts
 * parseFlags(['pods', '-An', 'x'], { 'all-namespaces': { type: 'boolean', short: 'A', help: '' }, namespace: { type: 'string', short: 'n', help: '' } });
 * // → { flags: { 'all-namespaces': true, namespace: 'x' }, positionals: ['pods'] }
 * ```
 *
 * @param args the arguments after the command.
 * @param specs the flags the command knows.
 * @returns the values and the positional arguments.
 * @throws {FlagError} for an unknown flag, a missing value or a boolean that is not true or false.
 */
export function parseFlags<S extends FlagSpecs>(args: readonly string[], specs: S): { readonly flags: FlagValues<S>; readonly positionals: readonly string[] } {
  const values: Record<string, string | boolean | string[] | undefined> = {};
  for (const [name, spec] of Object.entries(specs)) values[name] = spec.type === 'boolean' ? false : spec.type === 'strings' ? [] : undefined;
  const byShort = new Map(Object.entries(specs).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])));
  const positionals: string[] = [];
  const set = (name: string, value: string | undefined): void => {
    const spec = specs[name]!;
    if (spec.type === 'boolean') values[name] = parseBoolean(value ?? 'true', name, spec);
    else if (spec.type === 'strings') (values[name] as string[]).push(value!);
    else values[name] = value;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      if (arg.startsWith('---') || arg.startsWith('--=')) throw new FlagError(`bad flag syntax: ${arg}`);
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const spec = specs[name];
      if (!spec) throw new FlagError(`unknown flag: --${name}`);
      if (eq >= 0) set(name, arg.slice(eq + 1));
      else if (spec.type === 'boolean') set(name, undefined);
      else if (i + 1 < args.length) set(name, args[++i]!);
      else throw new FlagError(`flag needs an argument: --${name}`);
    } else if (arg.startsWith('-') && arg.length > 1) {
      // A cluster of shorthands: booleans, then at most one that takes the rest (or the next argument).
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        const name = byShort.get(letter);
        if (name === undefined) throw new FlagError(`unknown shorthand flag: '${letter}' in ${arg}`);
        const spec = specs[name]!;
        const rest = arg.slice(j + 1);
        if (rest.startsWith('=')) {
          set(name, rest.slice(1));
          break;
        }
        if (spec.type === 'boolean') {
          set(name, undefined);
          continue;
        }
        if (rest !== '') set(name, rest);
        else if (i + 1 < args.length) set(name, args[++i]!);
        else throw new FlagError(`flag needs an argument: '${letter}' in -${letter}`);
        break;
      }
    } else {
      positionals.push(arg);
    }
  }
  return { flags: values as FlagValues<S>, positionals };
}

/**
 * The `Options:` part of a command's `--help`, one flag a line, in the order given:
 * `  -n, --namespace <namespace>   Only this namespace`.
 */
export function flagHelp(specs: FlagSpecs): string {
  const left = Object.entries(specs).map(([name, spec]) => `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? ` <${spec.value}>` : ''}`);
  const width = Math.max(...left.map((text) => text.length)) + 3;
  return Object.values(specs)
    .map((spec, i) => `  ${left[i]!.padEnd(width)}${spec.help}`)
    .join('\n');
}

function parseBoolean(text: string, name: string, spec: FlagSpec): boolean {
  if (/^(1|t|T|true|TRUE|True)$/.test(text)) return true;
  if (/^(0|f|F|false|FALSE|False)$/.test(text)) return false;
  const shown = spec.short ? `-${spec.short}, --${name}` : `--${name}`;
  throw new FlagError(`invalid argument ${JSON.stringify(text)} for "${shown}" flag: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
}
