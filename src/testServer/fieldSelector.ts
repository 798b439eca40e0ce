import { SelectorSyntaxError } from './labelSelector.js';

/** A parsed field selector: true when the object's selectable fields satisfy it. */
export type FieldMatcher = (object: unknown) => boolean;

/**
 * Parses a field selector (`metadata.name=x,spec.nodeName!=y`; `=`, `==` and `!=` only, as the real
 * server) against the fields a resource allows.
 *
 * @param selector The `fieldSelector` query parameter.
 * @param allowed Dotted field paths this resource can be selected on.
 * @throws {SelectorSyntaxError} for bad syntax or a field the resource does not support
 *   (`field label not supported: x`, the real server's message).
 */
export function parseFieldSelector(selector: string, allowed: ReadonlySet<string>): FieldMatcher {
  const trimmed = selector.trim();
  if (trimmed === '') return () => true;
  const terms = trimmed.split(',').map((term) => {
    const m = /^\s*([^\s!=]+)\s*(==|=|!=)\s*([^\s]*)\s*$/.exec(term);
    if (!m) throw new SelectorSyntaxError(`invalid selector: '${selector}'; can't understand '${term}'`);
    const [, field = '', op, value = ''] = m;
    if (!allowed.has(field)) throw new SelectorSyntaxError(`field label not supported: ${field}`);
    const path = field.split('.');
    return { path, negate: op === '!=', value };
  });
  return (object) => {
    for (const term of terms) {
      const actual = fieldValue(object, term.path);
      if ((actual === term.value) === term.negate) return false;
    }
    return true;
  };
}

function fieldValue(object: unknown, path: readonly string[]): string {
  let current: unknown = object;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return '';
    current = (current as Record<string, unknown>)[step];
  }
  if (current === undefined || current === null) return '';
  return typeof current === 'string' ? current : String(current);
}
