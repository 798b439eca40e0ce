/**
 * The checks every public factory runs on its options, with one wording:
 * `[<factory>] <option> must be <rule>, got <value>`: the message names the part that refused the
 * value (`[leaderElection]`, `[resourceClient]`), not the library. A factory's resolve function calls
 * them and then fills in its defaults in one literal (style point 43).
 *
 * Each check lets `undefined` through (the option was not given; its default applies) and returns
 * the value it checked, so a resolve function can check and read in one expression.
 */
export interface OptionChecks {
  /** An integer ≥ 1 (page sizes, concurrency, virtual nodes). */
  positiveInteger(name: string, value: unknown): number | undefined;
  /** A finite number > 0 (durations that cannot be zero). */
  positive(name: string, value: unknown): number | undefined;
  /** A finite number ≥ 0 (delays, windows, grace periods). */
  nonNegative(name: string, value: unknown): number | undefined;
  /** One of the listed strings. */
  oneOf<const A extends string>(name: string, value: unknown, allowed: readonly A[]): A | undefined;
  /** A function (hooks, key functions, clocks). */
  func<F extends (...args: never[]) => unknown>(name: string, value: F | undefined): F | undefined;
  /** A non-empty string (names, identities). */
  nonEmptyString(name: string, value: unknown): string | undefined;
  /** A boolean. */
  boolean(name: string, value: unknown): boolean | undefined;
  /** Any other rule: throws `[<factory>] <message>`. */
  fail(message: string): never;
}

/**
 * The checks for one factory's options; every failure is a `TypeError` thrown at call time (style
 * point 25) that names the factory, the option, the rule and the value given.
 *
 * @param factory The name the user called (`'informer'`, `'leaderElection'`, `'hashRing'`).
 * @param config The options object as given: anything but a plain object (or `undefined`, when
 *   `optional`) is refused first.
 */
export function optionChecks(factory: string, config?: unknown, optional = true): OptionChecks {
  const fail = (message: string): never => {
    throw argumentError(factory, message);
  };
  if (config === undefined ? !optional : config === null || typeof config !== 'object') fail(`the options must be an object, got ${describe(config)}`);
  const rule = <V>(name: string, value: unknown, ok: (value: unknown) => boolean, what: string): V | undefined => {
    if (value !== undefined && !ok(value)) fail(`${name} must be ${what}, got ${describe(value)}`);
    return value as V | undefined;
  };
  return {
    positiveInteger: (name, value) => rule(name, value, (v) => Number.isInteger(v) && (v as number) >= 1, 'a positive integer'),
    positive: (name, value) => rule(name, value, (v) => typeof v === 'number' && Number.isFinite(v) && v > 0, 'a finite number > 0'),
    nonNegative: (name, value) => rule(name, value, (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'a finite number >= 0'),
    oneOf: (name, value, allowed) => rule(name, value, (v) => (allowed as readonly unknown[]).includes(v), `${allowed.map((a) => `'${a}'`).join(' or ')}`),
    func: (name, value) => rule(name, value, (v) => typeof v === 'function', 'a function'),
    nonEmptyString: (name, value) => rule(name, value, (v) => typeof v === 'string' && v !== '', 'a non-empty string'),
    boolean: (name, value) => rule(name, value, (v) => typeof v === 'boolean', 'a boolean'),
    fail,
  };
}

/** A value as an error message shows it: strings quoted, everything else as `String()` gives it. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

/** The errors {@link argumentError} made: what a caller may pass on as the user's mistake. */
const argumentErrors = new WeakSet<Error>();

/**
 * The `TypeError` for a bad argument or option, in the one wording: `[<part>] <message>`, the
 * part being the function or object the user called (`toDeltas`, `resourceClient.patch`). Every
 * argument check outside {@link optionChecks} throws one of these.
 */
export function argumentError(part: string, message: string): TypeError {
  const error = new TypeError(`[${part}] ${message}`);
  argumentErrors.add(error);
  return error;
}

/** Whether `error` is a bad argument reported by {@link argumentError} (or an option check). */
export function isArgumentError(error: unknown): error is TypeError {
  return error instanceof TypeError && argumentErrors.has(error);
}
