/**
 * Module hooks for `scripts/traceReconcile.ts`: the built library's files of the controller and
 * client rooms (`dist/controller/**`, `dist/client/**`) are loaded with one statement added at the
 * top of every function body, `globalThis.__rxTraceEnter?.(file, name)`, which the trace script
 * defines to tell where the call came from. Nothing else of the code changes: no function is
 * added, removed or wrapped, so the coverage and the stack at the reconciler stay those of the
 * plain build (the call returns before the body runs). Other files load untouched.
 */
import { readFileSync } from 'node:fs';
import type { LoadHook } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** `dist/controller/…` or `dist/client/…` (with its path from `dist/`), or undefined for every other URL. */
function roomFile(url: string): string | undefined {
  const match = /\/dist\/((?:controller|client)\/.+\.js)$/.exec(url);
  return match?.[1];
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 30)})`;
  return '(anonymous)';
}

/** `source` with the enter statement first in every function body; an arrow's expression body becomes `{ enter; return expr; }`. */
function instrument(file: string, source: string): string {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const f = ts.factory;
  const enter = (name: string): ts.Statement =>
    f.createExpressionStatement(
      f.createCallChain(f.createPropertyAccessExpression(f.createIdentifier('globalThis'), '__rxTraceEnter'), f.createToken(ts.SyntaxKind.QuestionDotToken), undefined, [f.createStringLiteral(file), f.createStringLiteral(name)]),
    );
  const transformer: ts.TransformerFactory<ts.SourceFile> = (context) => {
    const visit = (node: ts.Node): ts.Node => {
      const visited = ts.visitEachChild(node, visit, context);
      if (!ts.isFunctionLike(node) || !('body' in node) || node.body === undefined) return visited;
      const name = nameOf(node as ts.FunctionLikeDeclaration);
      const fn = visited as ts.FunctionLikeDeclaration;
      const body = fn.body!;
      const block = ts.isBlock(body) ? f.updateBlock(body, [enter(name), ...body.statements]) : f.createBlock([enter(name), f.createReturnStatement(body as ts.Expression)], true);
      if (ts.isFunctionDeclaration(fn)) return f.updateFunctionDeclaration(fn, fn.modifiers, fn.asteriskToken, fn.name, fn.typeParameters, fn.parameters, fn.type, block);
      if (ts.isFunctionExpression(fn)) return f.updateFunctionExpression(fn, fn.modifiers, fn.asteriskToken, fn.name, fn.typeParameters, fn.parameters, fn.type, block);
      if (ts.isArrowFunction(fn)) return f.updateArrowFunction(fn, fn.modifiers, fn.typeParameters, fn.parameters, fn.type, fn.equalsGreaterThanToken, block);
      if (ts.isMethodDeclaration(fn)) return f.updateMethodDeclaration(fn, fn.modifiers, fn.asteriskToken, fn.name, fn.questionToken, fn.typeParameters, fn.parameters, fn.type, block);
      if (ts.isGetAccessorDeclaration(fn)) return f.updateGetAccessorDeclaration(fn, fn.modifiers, fn.name, fn.parameters, fn.type, block);
      if (ts.isSetAccessorDeclaration(fn)) return f.updateSetAccessorDeclaration(fn, fn.modifiers, fn.name, fn.parameters, block);
      if (ts.isConstructorDeclaration(fn)) return f.updateConstructorDeclaration(fn, fn.modifiers, fn.parameters, block);
      return visited;
    };
    return (file) => ts.visitNode(file, visit) as ts.SourceFile;
  };
  const result = ts.transform(sourceFile, [transformer]);
  const printed = ts.createPrinter({ removeComments: true }).printFile(result.transformed[0]!);
  result.dispose();
  return printed;
}

export const load: LoadHook = async (url, context, nextLoad) => {
  const file = roomFile(url);
  if (file === undefined) return nextLoad(url, context);
  const source = readFileSync(fileURLToPath(url), 'utf8');
  return { format: 'module', source: instrument(file, source), shortCircuit: true };
};
