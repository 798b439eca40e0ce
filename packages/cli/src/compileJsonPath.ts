/** One step of a compiled path. */
type Step =
  | { readonly field: string }
  | { readonly index: number }
  | { readonly slice: readonly [number | undefined, number | undefined] }
  | { readonly wildcard: true }
  | { readonly descend: true }
  | { readonly filter: (value: unknown) => boolean };

type Comparison = '==' | '!=' | '<=' | '>=' | '<' | '>';

/**
 * Compiles the JSONPath that `kubectl -o jsonpath` users and CRD printer columns write: dotted
 * fields (`.spec.nodeName`), array positions (`[0]`, `[-1]`) and slices (`[1:3]`), every element or
 * value (`[*]`, `.*`), recursive descent (`..image`), quoted keys (`['app.kubernetes.io/name']`)
 * and filters comparing a field with a literal or testing that it exists
 * (`.status.conditions[?(@.type=="Ready")].status`, `[?(@.restartCount>2)]`, `[?(@.ready)]`).
 * The leading `$`, `.` and kubectl's `{…}` braces are optional.
 *
 * The compiled function returns every value the path reaches (missing fields reach nothing), so
 * `.spec.containers[*].image` gives one value per container.
 *
 * ## Example
 * ```ts
 * compileJsonPath('.status.conditions[?(@.type=="Ready")].status')({ status: { conditions: [{ type: 'Ready', status: 'True' }] } });
 * // → ['True']
 * ```
 *
 * @param expression the path text.
 * @returns a function from an object to the values found.
 * @throws {SyntaxError} naming the position when the text is not in the subset.
 */
export function compileJsonPath(expression: string): (value: unknown) => unknown[] {
  let text = expression.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  const steps = parseSteps(text, expression);
  return (value) => evaluate(steps, value);
}

function evaluate(steps: readonly Step[], value: unknown): unknown[] {
  return steps.reduce<unknown[]>((values, step) => values.flatMap((v) => apply(step, v)), [value]);
}

function parseSteps(source: string, expression: string): Step[] {
  let text = source.startsWith('$') || source.startsWith('@') ? source.slice(1) : source;
  const steps: Step[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new SyntaxError(`invalid JSONPath ${JSON.stringify(expression)}: ${why} at position ${i}`);
  };
  if (text === '' || text === '.') return steps;
  if (/^[A-Za-z_]/.test(text)) text = `.${text}`; // `spec.nodeName` works like `.spec.nodeName`
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      i++;
      if (text[i] === '.') {
        steps.push({ descend: true });
        i++;
        if (text[i] === '[') continue;
      }
      if (text[i] === '*') {
        steps.push({ wildcard: true });
        i++;
        continue;
      }
      const start = i;
      while (i < text.length && /[A-Za-z0-9_\-$]/.test(text[i]!)) i++;
      if (i === start) fail('expected a field name');
      steps.push({ field: text.slice(start, i) });
    } else if (c === '[') {
      const close = bracketEnd(text, i) ?? fail('unclosed [');
      steps.push(bracketStep(text.slice(i + 1, close).trim(), expression) ?? fail("expected [n], [a:b], [*], ['key'] or [?(…)]"));
      i = close + 1;
    } else {
      fail(`unexpected ${JSON.stringify(c)}`);
    }
  }
  return steps;
}

/** The `]` that closes the `[` at `open`, past quotes and nested brackets. */
function bracketEnd(text: string, open: number): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '[') {
      depth++;
    } else if (c === ']' && --depth === 0) {
      return i;
    }
  }
  return undefined;
}

function bracketStep(inner: string, expression: string): Step | undefined {
  if (inner === '*') return { wildcard: true };
  if (/^-?\d+$/.test(inner)) return { index: Number(inner) };
  const slice = /^(-?\d+)?:(-?\d+)?$/.exec(inner);
  if (slice) return { slice: [slice[1] === undefined ? undefined : Number(slice[1]), slice[2] === undefined ? undefined : Number(slice[2])] };
  const quoted = /^(['"])(.*)\1$/s.exec(inner);
  if (quoted) return { field: quoted[2]! };
  const filter = /^\?\((.*)\)$/s.exec(inner);
  return filter ? { filter: compileFilter(filter[1]!.trim(), expression) } : undefined;
}

/** `@.a.b == "x"`, `@.n > 2`, `@.ready`: true when a value the path reaches compares so (or, alone, exists). */
function compileFilter(text: string, expression: string): (value: unknown) => boolean {
  const comparison = /^(@[^=!<>]*?)\s*(==|!=|<=|>=|<|>)\s*(.+)$/s.exec(text);
  if (!comparison) {
    if (!text.startsWith('@')) throw new SyntaxError(`invalid JSONPath ${JSON.stringify(expression)}: a filter starts with @, got ${JSON.stringify(text)}`);
    const exists = parseSteps(text, expression);
    return (value) => evaluate(exists, value).length > 0;
  }
  const path = parseSteps(comparison[1]!.trim(), expression);
  const op = comparison[2] as Comparison;
  const literal = parseLiteral(comparison[3]!.trim(), expression);
  return (value) => evaluate(path, value).some((found) => compare(found, op, literal));
}

function parseLiteral(text: string, expression: string): string | number | boolean | null {
  const quoted = /^(['"])(.*)\1$/s.exec(text);
  if (quoted) return quoted[2]!;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  throw new SyntaxError(`invalid JSONPath ${JSON.stringify(expression)}: expected a quoted string, a number, true, false or null, got ${JSON.stringify(text)}`);
}

function compare(found: unknown, op: Comparison, literal: string | number | boolean | null): boolean {
  if (op === '==') return found === literal;
  if (op === '!=') return found !== literal;
  if (typeof found !== typeof literal || (typeof found !== 'number' && typeof found !== 'string')) return false;
  const [a, b] = [found as number | string, literal as number | string];
  return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
}

function apply(step: Step, value: unknown): unknown[] {
  if (value === null || typeof value !== 'object') return [];
  if ('descend' in step) return descendants(value);
  if ('wildcard' in step) return Array.isArray(value) ? value : Object.values(value);
  if ('filter' in step) return (Array.isArray(value) ? value : Object.values(value)).filter(step.filter);
  if ('index' in step || 'slice' in step) {
    if (!Array.isArray(value)) return [];
    if ('slice' in step) {
      const at = (n: number | undefined, fallback: number): number => (n === undefined ? fallback : n < 0 ? Math.max(0, value.length + n) : Math.min(n, value.length));
      return value.slice(at(step.slice[0], 0), at(step.slice[1], value.length));
    }
    const at = step.index < 0 ? value.length + step.index : step.index;
    return at >= 0 && at < value.length ? [value[at]] : [];
  }
  if (Array.isArray(value) || !Object.hasOwn(value, step.field)) return [];
  const found = (value as Record<string, unknown>)[step.field];
  return found === undefined ? [] : [found];
}

/** `value` and everything inside it, depth first (what `..` ranges over). */
function descendants(value: unknown): unknown[] {
  if (value === null || typeof value !== 'object') return [];
  return [value, ...(Array.isArray(value) ? value : Object.values(value)).flatMap(descendants)];
}
