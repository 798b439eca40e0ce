/**
 * Finds the members the API reference would show without a summary: the properties and methods of
 * exported interfaces, classes and object type literals (nested ones too), enum members, the
 * properties of option objects written inline in an exported function's parameters, and the
 * properties of exported object constants — everything TypeDoc lists under a declaration, reached
 * from the package's entry points. Read with the TypeScript compiler API (no TypeDoc run), so it is
 * fast enough for a spec. A member marked `@internal`, `@hidden` or `@ignore` is not published and
 * needs none; nor do private class members, or members declared outside src/ (those of Node or a
 * dependency that an exported type extends: their documentation is theirs).
 */
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** One member without a summary: where it is declared and its dotted name. */
export interface EmptyMember {
  /** `path:line` of the declaration, relative to the repository root. */
  readonly where: string;
  /** The member's name under its exported owner, e.g. `ControllerConfig.name`. */
  readonly name: string;
}

/** The project's compiler options for the published sources (tsconfig.build.json). */
function buildOptions(): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.build.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath);
  return { ...parsed.options, noEmit: true };
}

const unpublishedTags = new Set(['internal', 'hidden', 'ignore']);

function jsDocs(node: ts.Node): ts.JSDoc[] {
  return ts.getJSDocCommentsAndTags(node).filter((doc): doc is ts.JSDoc => ts.isJSDoc(doc));
}

function inlined(node: ts.Node): boolean {
  return jsDocs(node).some((doc) => (doc.tags ?? []).some((tag) => tag.tagName.text === 'inline'));
}

function unpublished(node: ts.Node): boolean {
  return jsDocs(node).some((doc) => (doc.tags ?? []).some((tag) => unpublishedTags.has(tag.tagName.text)));
}

/**
 * True when the comment nearest the declaration has summary text (tags alone are no summary); a
 * constructor's parameter property may have it from the constructor's `@param` instead.
 */
function hasSummary(node: ts.Node): boolean {
  const doc = jsDocs(node).at(-1);
  if ((ts.getTextOfJSDocComment(doc?.comment) ?? '').trim() !== '') return true;
  return ts.isParameter(node) && ts.getJSDocParameterTags(node).some((tag) => (ts.getTextOfJSDocComment(tag.comment) ?? '').replace(/^[\s-]+/, '') !== '');
}

function inSources(node: ts.Node): boolean {
  const file = node.getSourceFile().fileName;
  return !file.includes(`${sep}node_modules${sep}`) && !file.includes('/node_modules/') && relative(root, file).startsWith('src');
}

function memberName(node: ts.NamedDeclaration): string {
  const name = node.name;
  if (name === undefined) return '(anonymous)';
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name) ? name.text : name.getText();
}

/**
 * The members without a summary reachable from each entry point (paths relative to the repository
 * root), keyed by entry point; a member reached from two entry points is listed under both.
 */
export function membersWithoutSummary(entryPoints: readonly string[]): Map<string, EmptyMember[]> {
  const program = ts.createProgram(
    entryPoints.map((entry) => join(root, entry)),
    buildOptions(),
  );
  const checker = program.getTypeChecker();
  const result = new Map<string, EmptyMember[]>();

  for (const entry of entryPoints) {
    const found: EmptyMember[] = [];
    const seen = new Set<ts.Node>();
    const check = (node: ts.NamedDeclaration, owner: string): string | undefined => {
      if (!inSources(node) || unpublished(node)) return undefined;
      const name = `${owner}.${memberName(node)}`;
      if (seen.has(node)) return name;
      seen.add(node);
      if (!hasSummary(node)) {
        const file = node.getSourceFile();
        const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
        found.push({ where: `${relative(root, file.fileName)}:${line}`, name });
      }
      return name;
    };
    const walkParameters = (parameters: readonly ts.ParameterDeclaration[], owner: string): void => {
      for (const parameter of parameters) if (parameter.type) walkType(parameter.type, owner);
    };
    const walkMember = (member: ts.Node, owner: string): void => {
      if (!(ts.isPropertySignature(member) || ts.isMethodSignature(member) || ts.isPropertyDeclaration(member) || ts.isMethodDeclaration(member) || ts.isGetAccessorDeclaration(member) || ts.isSetAccessorDeclaration(member))) return;
      if (ts.isPrivateIdentifier(member.name)) return;
      const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
      if (modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword)) return;
      const name = check(member, owner);
      if (name === undefined) return;
      if ((ts.isPropertySignature(member) || ts.isPropertyDeclaration(member)) && member.type) walkType(member.type, name);
      if (ts.isMethodSignature(member) || ts.isMethodDeclaration(member)) walkParameters(member.parameters, name);
    };
    /** Object type literals written inline, where TypeDoc lists their members too. */
    const walkType = (type: ts.TypeNode, owner: string): void => {
      if (ts.isTypeLiteralNode(type)) for (const member of type.members) walkMember(member, owner);
      else if (ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type)) for (const part of type.types) walkType(part, owner);
      else if (ts.isParenthesizedTypeNode(type) || ts.isTypeOperatorNode(type)) walkType(type.type, owner);
      else if (ts.isArrayTypeNode(type)) walkType(type.elementType, owner);
      else if (ts.isFunctionTypeNode(type) || ts.isConstructorTypeNode(type)) walkParameters(type.parameters, owner);
      else if (ts.isTypeReferenceNode(type)) {
        for (const argument of type.typeArguments ?? []) walkType(argument, owner);
        // A type marked `@inline` is shown in place, with its members.
        const referenced = checker.getSymbolAtLocation(type.typeName);
        const target = referenced && referenced.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(referenced) : referenced;
        for (const declaration of target?.declarations ?? []) {
          if (!inSources(declaration) || !inlined(declaration) || seen.has(declaration)) continue;
          seen.add(declaration);
          if (ts.isInterfaceDeclaration(declaration)) for (const member of declaration.members) walkMember(member, owner);
          else if (ts.isTypeAliasDeclaration(declaration)) walkType(declaration.type, owner);
        }
      }
    };

    const source = program.getSourceFile(join(root, entry));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`no module for entry point ${entry}`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const owner = exported.name;
      for (const declaration of symbol.declarations ?? []) {
        if (!inSources(declaration) || unpublished(declaration)) continue;
        if (ts.isInterfaceDeclaration(declaration) || ts.isClassDeclaration(declaration)) {
          // Inherited members too: TypeDoc lists them on the exported type, with the comment of
          // the declaration it inherits.
          const type = checker.getDeclaredTypeOfSymbol(symbol);
          for (const property of checker.getPropertiesOfType(type)) {
            for (const member of property.declarations ?? []) walkMember(member, owner);
          }
          if (ts.isClassDeclaration(declaration)) {
            for (const member of declaration.members) {
              if (!ts.isConstructorDeclaration(member)) continue;
              // A parameter property is a member of the class too.
              for (const parameter of member.parameters) {
                if (ts.isParameterPropertyDeclaration(parameter, member) && !(ts.getModifiers(parameter) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword)) check(parameter, owner);
              }
              walkParameters(member.parameters, owner);
            }
          } else {
            for (const member of declaration.members) if (ts.isCallSignatureDeclaration(member)) walkParameters(member.parameters, owner);
          }
        } else if (ts.isTypeAliasDeclaration(declaration)) {
          walkType(declaration.type, owner);
        } else if (ts.isEnumDeclaration(declaration)) {
          for (const member of declaration.members) check(member, owner);
        } else if (ts.isFunctionDeclaration(declaration)) {
          walkParameters(declaration.parameters, owner);
        } else if (ts.isVariableDeclaration(declaration)) {
          if (declaration.type) walkType(declaration.type, owner);
          else if (declaration.initializer) {
            let initializer: ts.Expression = declaration.initializer;
            while (ts.isAsExpression(initializer) || ts.isSatisfiesExpression(initializer) || ts.isParenthesizedExpression(initializer)) initializer = initializer.expression;
            if (ts.isObjectLiteralExpression(initializer)) {
              for (const property of initializer.properties) {
                if (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property) || ts.isMethodDeclaration(property)) check(property, owner);
              }
            } else if (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) {
              walkParameters(initializer.parameters, owner);
            }
          }
        }
      }
    }
    result.set(entry, found);
  }
  return result;
}
