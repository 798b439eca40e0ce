/**
 * Type-checks code snippets (README blocks, TSDoc examples) as a reader would paste them: each one a
 * module of its own at the repository root, with the project's compiler options (strict) and the
 * package names resolved as a user's project resolves them. Nothing is prepended: a snippet must
 * import or declare every name it uses.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** One snippet: where it comes from (for messages) and its code. */
export interface Snippet {
  readonly name: string;
  readonly code: string;
}

/** The project's compiler options, from tsconfig.json, without its unused-name lints. */
function projectOptions(): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  // Strict as the project is; a snippet may name a value only to show it, as examples do.
  return { ...parsed.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false };
}

/**
 * The files every check reads besides the snippets (the library's sources, the declarations of Node
 * and of the dependencies), parsed once per worker: a second check in the same spec file (the
 * README's has two) reuses them, bound as the first left them, instead of parsing them again.
 */
const parsedFiles = new Map<string, ts.SourceFile>();

/**
 * The problems of each snippet, as `name:line: message`; empty when all type-check. A snippet
 * without an import is a problem too: a reader could not tell where its names come from.
 */
export function typeCheckSnippets(snippets: readonly Snippet[]): string[] {
  const options = projectOptions();
  const files = new Map(snippets.map((snippet, i) => [join(root, `.snippet-${i}.ts`), snippet] as const));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (path) => files.has(path) || fileExists.call(host, path);
  host.readFile = (path) => files.get(path)?.code ?? readFile.call(host, path);
  host.getSourceFile = (path, language, ...rest) => {
    const snippet = files.get(path);
    if (snippet) return ts.createSourceFile(path, snippet.code, language, true);
    const key = `${path}\0${JSON.stringify(language)}`;
    const parsed = parsedFiles.get(key) ?? getSourceFile.call(host, path, language, ...rest);
    if (parsed) parsedFiles.set(key, parsed);
    return parsed;
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const problems: string[] = [];
  for (const [path, snippet] of files) {
    const source = program.getSourceFile(path)!;
    const imports = source.statements.some((statement) => ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement));
    if (!imports) problems.push(`${snippet.name}: imports nothing, so a reader cannot tell where its names come from`);
    for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
      const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
      problems.push(`${snippet.name}:${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    }
  }
  return problems;
}

/** The ```ts blocks of a Markdown text, named `file#n (line m)`. */
export function markdownTsBlocks(file: string, markdown: string): Snippet[] {
  const blocks: Snippet[] = [];
  for (const match of markdown.matchAll(/^```ts\n([\s\S]*?)^```/gm)) {
    const line = markdown.slice(0, match.index).split('\n').length;
    blocks.push({ name: `${file}#${blocks.length + 1} (line ${line})`, code: match[1]! });
  }
  return blocks;
}

/** The ```ts blocks inside the TSDoc comments of a source file, ` * ` margins removed. */
export function tsdocTsBlocks(file: string, source: string): Snippet[] {
  const blocks: Snippet[] = [];
  for (const match of source.matchAll(/^ \* ```ts\n([\s\S]*?)^ \* ```/gm)) {
    const line = source.slice(0, match.index).split('\n').length;
    const code = match[1]!.split('\n').map((text) => text.replace(/^ \* ?/, '')).join('\n');
    blocks.push({ name: `${file}#${blocks.length + 1} (line ${line})`, code });
  }
  return blocks;
}
