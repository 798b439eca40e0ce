// @ts-check
/**
 * A TypeDoc plugin (typedoc.json `plugin`): the API reference groups each entry point's exports by
 * concept, from the source folder of their definition, instead of by kind (Functions, Interfaces,
 * …). The folders are the rooms of ARCHITECTURE.md, so a new export lands in its group by being
 * put in its room; nothing in the source files names a group. A re-export (a name two entry points
 * share) is grouped by the folder of what it refers to.
 *
 * A room too big for one group (the controller's: about 60 exports) is split by concept with
 * longer paths (`controller/writes`, `controller/reconcile`): the longest path that holds a file
 * decides its group.
 *
 * It rebuilds each module's groups after TypeDoc's own grouping (which runs at RESOLVE_END with
 * priority -100); a folder missing from the table fails the build, naming it.
 */
import { Converter, ReferenceReflection, ReflectionGroup, ReflectionKind } from 'typedoc';

/** Concept → the folders under src/ (or files, or files without `.ts`) whose exports it groups, in the order the pages show them. */
export const conceptGroups = [
  ['Informer', ['informer']],
  ['Sources', ['sources']],
  ['Operators', ['operators']],
  ['Store', ['store']],
  ['Client', ['client']],
  ['Relay', ['relay']],
  ['Metrics', ['metrics', 'prometheus']],
  ['Controller', ['controller']],
  [
    'Work queue',
    [
      'controller/queue',
      'controller/reconcile',
      'controller/reconcileConfig',
      'controller/reconcileReason',
      'controller/rateLimiter',
      'controller/keyQueue',
      'controller/workQueueState',
      'controller/workQueueStep',
      'controller/runHandler',
      'controller/afterRun',
      'controller/predicateFilter',
      'controller/predicates',
    ],
  ],
  ['Writes', ['controller/writes']],
  ['Events and probes', ['controller/eventRecorder', 'controller/healthProbes']],
  ['Replicas', ['coordination', 'sharding']],
  ['Fleets', ['fleet']],
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
  const path = file.split('/src/').at(-1) ?? '';
  /** How long a prefix of `path` a concept's entry is (0: none): a folder, a file, or a file named without `.ts`. */
  const reach = (/** @type {string} */ entry) => (path === entry || path === `${entry}.ts` || path.startsWith(`${entry}/`) ? entry.length : 0);
  const found = conceptGroups
    .map(([title, rooms]) => /** @type {const} */ ([title, Math.max(0, ...rooms.map(reach))]))
    .filter(([, length]) => length > 0)
    .sort((a, b) => b[1] - a[1])[0];
  if (found === undefined) throw new Error(`typedocConceptGroups: ${reflection.getFriendlyFullName()} is defined in ${file}, a folder no concept of scripts/typedocConceptGroups.mjs names`);
  return found[0];
}
