/**
 * What the example tests test: a tiny "widget sizer" that any controller could contain. It reads
 * Widgets (the CRD in crds/widgets.yaml) through an informer and answers how many of each colour
 * a namespace holds.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { informer, listWatch, type Informer } from 'rx-informer';

/** The Widget kind of crds/widgets.yaml, as JSON. */
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: { size?: number; colour?: 'red' | 'green' | 'blue' };
}

/** `{ group, version, plural }` of Widgets. */
export const widgets = { group: 'envtest.rx-informer.dev', version: 'v1', plural: 'widgets' } as const;

/** An informer of the Widgets in `namespace`. */
export const widgetInformer = (kubeConfig: KubeConfig, namespace: string): Informer<Widget> => informer(listWatch<Widget>(kubeConfig, { ...widgets, namespace }));

/** The total size per colour of the widgets an informer holds. */
export function sizeByColour(cache: Informer<Widget>): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const widget of cache.snapshot.values()) {
    const colour = widget.spec?.colour ?? 'none';
    totals[colour] = (totals[colour] ?? 0) + (widget.spec?.size ?? 0);
  }
  return totals;
}
