/** A parsed selector: true when an object's labels (or fields) satisfy every requirement. */
export type SelectorMatcher = (values: Readonly<Record<string, string>> | undefined) => boolean;

/** Thrown for a selector the real server would refuse; the server answers 400 with its message. */
export class SelectorSyntaxError extends Error {
  override readonly name = 'SelectorSyntaxError';
}

type Requirement = (labels: Readonly<Record<string, string>>) => boolean;

const keyPattern = /^([a-z0-9A-Z]([-a-z0-9A-Z.]*[a-z0-9A-Z])?\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;

/**
 * Parses a Kubernetes label selector, equality- and set-based: `a=b,c!=d,e in (x,y),f notin (z),g,!h`
 * (also `==`, and `gt`/`lt` as `a>1`, `a<1`). The empty selector matches everything.
 *
 * @throws {SelectorSyntaxError} naming the part it could not parse.
 */
export function parseLabelSelector(selector: string): SelectorMatcher {
  const requirements = splitTopLevel(selector).map(parseRequirement);
  if (requirements.length === 0) return () => true;
  return (labels) => {
    const values = labels ?? {};
    for (const requirement of requirements) if (!requirement(values)) return false;
    return true;
  };
}

function splitTopLevel(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selector.slice(start));
  const trimmed = parts.map((p) => p.trim());
  if (trimmed.length === 1 && trimmed[0] === '') return [];
  for (const part of trimmed) if (part === '') throw new SelectorSyntaxError(`unable to parse requirement: empty requirement in "${selector}"`);
  return trimmed;
}

function has(labels: Readonly<Record<string, string>>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(labels, key);
}

function parseRequirement(text: string): Requirement {
  const set = /^(!?)\s*([^\s!=<>(),]+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(text);
  if (set) {
    const [, bang, key = '', op, list = ''] = set;
    if (bang) throw new SelectorSyntaxError(`unable to parse requirement: "${text}"`);
    checkKey(key);
    const values = new Set(list.split(',').map((v) => v.trim()).filter((v) => v !== ''));
    if (op === 'in') return (labels) => has(labels, key) && values.has(labels[key] ?? '');
    return (labels) => !has(labels, key) || !values.has(labels[key] ?? '');
  }
  const exists = /^(!?)\s*([^\s!=<>(),]+)$/.exec(text);
  if (exists) {
    const [, bang, key = ''] = exists;
    checkKey(key);
    return bang ? (labels) => !has(labels, key) : (labels) => has(labels, key);
  }
  const compare = /^([^\s!=<>(),]+)\s*(==|=|!=|>|<)\s*([^\s!=<>(),]*)$/.exec(text);
  if (compare) {
    const [, key = '', op, value = ''] = compare;
    checkKey(key);
    if (op === '!=') return (labels) => labels[key] !== value || !has(labels, key);
    if (op === '>' || op === '<') {
      const bound = Number.parseInt(value, 10);
      if (!/^-?\d+$/.test(value)) throw new SelectorSyntaxError(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer: "${text}"`);
      return (labels) => {
        const v = labels[key];
        if (v === undefined || !/^-?\d+$/.test(v)) return false;
        return op === '>' ? Number.parseInt(v, 10) > bound : Number.parseInt(v, 10) < bound;
      };
    }
    return (labels) => has(labels, key) && labels[key] === value;
  }
  throw new SelectorSyntaxError(`unable to parse requirement: "${text}"`);
}

function checkKey(key: string): void {
  if (!keyPattern.test(key)) throw new SelectorSyntaxError(`unable to parse requirement: invalid label key "${key}"`);
}
