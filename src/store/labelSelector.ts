import { LabelSelectorError } from '../errors.js';

/**
 * One requirement of a label selector, as `metav1.LabelSelectorRequirement` plus the equality forms.
 *
 * @inline
 */
export interface LabelRequirement {
  /** The label key, e.g. `app` or `example.com/tier`. */
  readonly key: string;
  /** How the label's value is compared with `values` (`Exists`, `DoesNotExist`: only whether the label is there). */
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  /** The values compared: a set for `In` and `NotIn`, one integer for `Gt` and `Lt`, none for `Exists` and `DoesNotExist`. */
  readonly values: readonly string[];
}

/** A parsed label selector: every requirement must hold. The empty selector matches everything. */
export interface LabelSelector {
  /** The requirements, all of which must hold. */
  readonly requirements: readonly LabelRequirement[];
}

/** The structured form used in Kubernetes objects (`metav1.LabelSelector`). */
export interface LabelSelectorSpec {
  /** Labels that must have exactly these values. */
  readonly matchLabels?: Readonly<Record<string, string>>;
  /** Requirements that must all hold as well. */
  readonly matchExpressions?: readonly LabelRequirement[];
}


const KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/**
 * Parses a label selector: text as `kubectl -l` and the API server accept it — `a=b`, `a==b`,
 * `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a` (exists), `!a` (does not exist), `a>1`, `a<1` (integer
 * comparisons), joined by commas — or the structured form found in objects (`metav1.LabelSelector`:
 * `matchLabels` and `matchExpressions`).
 *
 * ## Example
 * ```ts
 * import { matchesLabels, parseLabelSelector } from 'rx-informer';
 * const web = parseLabelSelector('app=web,tier in (frontend,edge)');
 * matchesLabels(web, { app: 'web', tier: 'edge' }); // true
 * matchesLabels(parseLabelSelector({ matchLabels: { app: 'db' } }), { app: 'web' }); // false
 * ```
 *
 * @param selector selector text, or a `{ matchLabels, matchExpressions }` spec.
 * @throws {LabelSelectorError} naming the requirement that could not be parsed, an unknown operator or missing values.
 */
export function parseLabelSelector(selector: string | LabelSelectorSpec): LabelSelector {
  if (typeof selector !== 'string') return fromSpec(selector);
  const text = selector;
  const requirements: LabelRequirement[] = [];
  for (const raw of splitTopLevel(text, text)) {
    const part = raw.trim();
    if (part === '') {
      if (text.trim() === '') continue;
      throw new LabelSelectorError(text, 'empty requirement');
    }
    requirements.push(parseRequirement(text, part));
  }
  return Object.freeze({ requirements: Object.freeze(requirements) });
}

function splitTopLevel(selector: string, text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) throw new LabelSelectorError(selector, `unbalanced ")" at ${i}`);
    } else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) throw new LabelSelectorError(selector, 'unbalanced "("');
  parts.push(text.slice(start));
  return parts;
}

function parseRequirement(selector: string, part: string): LabelRequirement {
  const set = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(part);
  if (set) {
    const values = set[3]!.split(',').map((v) => v.trim());
    if (values.some((v) => v === '') && values.length > 1) {
      throw new LabelSelectorError(selector, `empty value in "${part}"`);
    }
    return requirement(selector, set[1]!, set[2] === 'in' ? 'In' : 'NotIn', values);
  }
  const equality = /^([^=!<>\s]+)\s*(==|=|!=)\s*([^=!<>\s]*)$/.exec(part);
  if (equality) {
    return requirement(selector, equality[1]!, equality[2] === '!=' ? 'NotIn' : 'In', [equality[3]!]);
  }
  const comparison = /^([^=!<>\s]+)\s*([<>])\s*(\S*)$/.exec(part);
  if (comparison) {
    if (!/^-?\d+$/.test(comparison[3]!)) throw new LabelSelectorError(selector, `"${part}": the value of > and < must be an integer`);
    return requirement(selector, comparison[1]!, comparison[2] === '>' ? 'Gt' : 'Lt', [comparison[3]!]);
  }
  if (part.startsWith('!')) return requirement(selector, part.slice(1).trim(), 'DoesNotExist', []);
  return requirement(selector, part, 'Exists', []);
}

function requirement(selector: string, key: string, operator: LabelRequirement['operator'], values: string[]): LabelRequirement {
  if (!KEY.test(key)) throw new LabelSelectorError(selector, `invalid label key "${key}"`);
  if (operator === 'Gt' || operator === 'Lt') return Object.freeze({ key, operator, values: Object.freeze(values) });
  for (const value of values) {
    if (value.length > 63 || !VALUE.test(value)) throw new LabelSelectorError(selector, `invalid label value "${value}" for key "${key}"`);
  }
  return Object.freeze({ key, operator, values: Object.freeze(values) });
}

/** The selector of a structured spec (`matchLabels` + `matchExpressions`). */
function fromSpec(spec: LabelSelectorSpec): LabelSelector {
  const requirements: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(spec.matchLabels ?? {})) requirements.push({ key, operator: 'In', values: [value] });
  for (const expression of spec.matchExpressions ?? []) {
    const { key, operator, values } = expression;
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'].includes(operator)) {
      throw new LabelSelectorError(JSON.stringify(spec), `unknown operator "${String(operator)}" for key "${key}"`);
    }
    if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
      throw new LabelSelectorError(JSON.stringify(spec), `operator ${operator} for key "${key}" needs values`);
    }
    requirements.push({ key, operator, values: [...values] });
  }
  return Object.freeze({ requirements: Object.freeze(requirements) });
}

/** Whether `labels` satisfy every requirement of `selector`. */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  for (const { key, operator, values } of selector.requirements) {
    const present = labels !== undefined && Object.hasOwn(labels, key);
    const value = present ? labels[key] : undefined;
    switch (operator) {
      case 'Exists':
        if (!present) return false;
        break;
      case 'DoesNotExist':
        if (present) return false;
        break;
      case 'In':
        if (!present || !values.includes(value!)) return false;
        break;
      case 'NotIn':
        if (present && values.includes(value!)) return false;
        break;
      case 'Gt':
      case 'Lt': {
        if (!present || !/^-?\d+$/.test(value!)) return false;
        const [actual, bound] = [Number.parseInt(value!, 10), Number.parseInt(values[0]!, 10)];
        if (operator === 'Gt' ? !(actual > bound) : !(actual < bound)) return false;
        break;
      }
    }
  }
  return true;
}
