// @ts-check
/**
 * A TypeDoc plugin (typedoc.json `plugin`): the API reference groups each entry point's exports by
 * concept, from the source folder of their definition, instead of by kind (Functions, Interfaces,
 * …). The folders are the rooms of ARCHITECTURE.md, so a new export lands in its group by being
 * put in its room; nothing in the source files names a group. A re-export (a name two entry points
 * share) is grouped by the folder of what it refers to.
 *
 * It rebuilds each module's groups after TypeDoc's own grouping (which runs at RESOLVE_END with
 * priority -100); a folder missing from the table fails the build, naming it.
 */
import { Converter, ReferenceReflection, ReflectionGroup, ReflectionKind } from 'typedoc';

/** Concept → the folders under src/ (or files) whose exports it groups, in the order the pages show them. */
export const conceptGroups = [
  ['Informer', ['informer']],
  ['Sources', ['sources']],
  ['Operators', ['operators']],
  ['Store', ['store']],
  ['Client', ['client']],
  ['Metrics', ['metrics', 'prometheus']],
  ['Controller', ['controller']],
  ['Replicas', ['coordination', 'sharding']],
  ['Testing', ['testing']],
  ['Test server', ['testServer']],
  ['Control plane', ['envtest']],
  ['Errors', ['errors.ts']],
];

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => regroup(context.project), -150);
}

/** @param {import('typedoc').ProjectReflection} project */
function regroup(project) {
  for (const module of project.getReflectionsByKind(ReflectionKind.Module)) {
    if (!('children' in module) || !Array.isArray(module.children)) continue;
    const byConcept = new Map(conceptGroups.map(([title]) => [title, /** @type {import('typedoc').DeclarationReflection[]} */ ([])]));
    for (const child of module.children) byConcept.get(conceptOf(child))?.push(child);
    module.groups = [...byConcept]
      .filter(([, children]) => children.length > 0)
      .map(([title, children]) => Object.assign(new ReflectionGroup(title, module), { children: children.sort((a, b) => a.name.localeCompare(b.name)) }));
  }
}

/** @param {import('typedoc').DeclarationReflection} reflection */
function conceptOf(reflection) {
  const target = reflection instanceof ReferenceReflection ? reflection.getTargetReflectionDeep() : reflection;
  const file = target.sources?.[0]?.fullFileName ?? '';
  const [room = ''] = file.split('/src/').at(-1)?.split('/') ?? [];
  const found = conceptGroups.find(([, rooms]) => rooms.includes(room));
  if (found === undefined) throw new Error(`typedocConceptGroups: ${reflection.getFriendlyFullName()} is defined in ${file}, a folder no concept of scripts/typedocConceptGroups.mjs names`);
  return found[0];
}
