import { CliError } from './cliError.js';

/** One step of a compiled path: a field, an array position, or every element/value. */
type Step = { readonly field: string } | { readonly index: number } | { readonly wildcard: true };

/**
 * Compiles the JSONPath subset `kubectl -o jsonpath` users write most: dotted fields
 * (`.spec.nodeName`), array positions (`[0]`, `[-1]`), every element (`[*]`, `.*`) and quoted keys
 * (`['app.kubernetes.io/name']`, `["x"]`). The leading `$`, `.` and kubectl's `{…}` braces are optional.
 *
 * The compiled function returns every value the path reaches (missing fields reach nothing), so
 * `.spec.containers[*].image` gives one value per container.
 *
 * ## Example
 * ```ts
 * compileJsonPath('.metadata.labels[\'app\']')({ metadata: { labels: { app: 'web' } } });
 * // → ['web']
 * ```
 *
 * @param expression the path text.
 * @returns a function from an object to the values found.
 * @throws {CliError} when the text is not in the subset (exit code 2).
 */
export function compileJsonPath(expression: string): (value: unknown) => unknown[] {
  const steps = parseSteps(expression);
  return (value) => steps.reduce<unknown[]>((values, step) => values.flatMap((v) => apply(step, v)), [value]);
}

function parseSteps(expression: string): Step[] {
  let text = expression.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  if (text.startsWith('$')) text = text.slice(1);
  const steps: Step[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new CliError(`invalid JSONPath ${JSON.stringify(expression)}: ${why} at position ${i}`, { exitCode: 2 });
  };
  if (text === '' || text === '.') return steps;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      i++;
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
      steps.push(bracketStep(text.slice(i + 1, close).trim()) ?? fail('expected [n], [*] or [\'key\']'));
      i = close + 1;
    } else if (steps.length === 0 && i === 0 && /[A-Za-z_]/.test(c!)) {
      text = `.${text}`; // `spec.nodeName` works like `.spec.nodeName`
    } else {
      fail(`unexpected ${JSON.stringify(c)}`);
    }
  }
  return steps;
}

function bracketEnd(text: string, open: number): number | undefined {
  const quote = text[open + 1] === "'" || text[open + 1] === '"' ? text[open + 1] : undefined;
  if (quote === undefined) {
    const close = text.indexOf(']', open);
    return close < 0 ? undefined : close;
  }
  const end = text.indexOf(quote, open + 2);
  return end >= 0 && text[end + 1] === ']' ? end + 1 : undefined;
}

function bracketStep(inner: string): Step | undefined {
  if (inner === '*') return { wildcard: true };
  if (/^-?\d+$/.test(inner)) return { index: Number(inner) };
  const quoted = /^(['"])(.*)\1$/s.exec(inner);
  return quoted ? { field: quoted[2]! } : undefined;
}

function apply(step: Step, value: unknown): unknown[] {
  if (value === null || typeof value !== 'object') return [];
  if ('wildcard' in step) return Array.isArray(value) ? value : Object.values(value);
  if ('index' in step) {
    if (!Array.isArray(value)) return [];
    const at = step.index < 0 ? value.length + step.index : step.index;
    return at >= 0 && at < value.length ? [value[at]] : [];
  }
  if (Array.isArray(value) || !Object.hasOwn(value, step.field)) return [];
  const found = (value as Record<string, unknown>)[step.field];
  return found === undefined ? [] : [found];
}
