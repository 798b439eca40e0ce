/**
 * The names taken in one generated module (all kinds of one group/version share it, since their
 * index re-exports them together): {@link TypeNames.take} hands out the wanted name, or the wanted
 * name with a number when two paths spell the same (`spec.fooBar` and `spec.foo.bar` both want
 * `XSpecFooBar`). Deterministic: names go out in the order asked.
 */
export class TypeNames {
  readonly #taken = new Set<string>();

  /**
   * @param reserved names that are not to be handed out (the module's imports).
   */
  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.#taken.add(name);
  }

  /** Takes `wanted`, or `wanted2`, `wanted3`, … when it is taken. */
  take(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.#taken.has(name); n++) name = `${wanted}${n}`;
    this.#taken.add(name);
    return name;
  }
}

/**
 * A property name as a part of a type name: `requestHeaderModifier` → `RequestHeaderModifier`,
 * `x-forwarded-for` → `XForwardedFor`, `$ref` → `Ref`. Empty for a name with no letter or digit.
 */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** A name usable as an identifier for a value: `gateways`, `backend-tls-policies` → `backendTlsPolicies`, `delete` → `deleteResource`. */
export function valueName(text: string): string {
  const pascal = pascalCase(text);
  const camel = pascal === '' ? 'resource' : /^[0-9]/.test(pascal) ? `_${pascal}` : pascal[0]!.toLowerCase() + pascal.slice(1);
  return reservedWords.has(camel) ? `${camel}Resource` : camel;
}

/** A property key as written in an interface: bare when it is an identifier, quoted otherwise. */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

const reservedWords = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with implements interface let package private ' +
    'protected public static yield await arguments eval undefined'
  ).split(' '),
);
