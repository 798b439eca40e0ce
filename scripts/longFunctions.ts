/**
 * Lists the functions of `src/` longer than a number of lines (80 unless given), longest first:
 * function declarations, function expressions, arrow functions, methods and accessors, each
 * counted from its first line to its last (comments inside included). A function nested in a
 * long one is listed on its own when it is long itself.
 *
 *   node --import=tsx scripts/longFunctions.ts [--over 80] [--root DIR]
 *
 * `--root` measures another checkout (for a before/after comparison); the default is this one.
 * It prints one `lines  file:line  name` row per function and a count, and reads files only.
 * test/scripts/longFunctions.spec.ts runs it in `npm test`: every long function must be on its
 * list, with why, and the list may not grow past its budget.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

export interface LongFunction {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The name a reader would look for: the declared name, or the variable / property it is bound to. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** The functions of `root`'s `src/` longer than `over` lines, longest first. */
export function longFunctions(root: string, over: number): LongFunction[] {
  const found: LongFunction[] = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const fn = node as ts.FunctionLikeDeclaration;
        const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
        const lines = last - first + 1;
        if (lines > over) found.push({ file: relative(root, path), line: first + 1, name: nameOf(fn), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const over = Number(option('--over') ?? 80);
  const root = option('--root') ?? process.cwd();
  const rows = longFunctions(root, over);
  for (const f of rows) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
  console.log(`${rows.length} functions over ${over} lines in ${join(root, 'src')}`);
}
