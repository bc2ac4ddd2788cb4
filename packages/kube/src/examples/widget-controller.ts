// README example: a Widget controller that keeps one ConfigMap per Widget and reports Ready.
import { controllerReference, setCondition } from '../index';
import type { Condition, KubeObject, Manager, ReconcileContext, ReconcileResult, Request } from '../index';

export const Widget = { group: 'example.io', version: 'v1', plural: 'widgets', kind: 'Widget' } as const;
export const ConfigMap = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' } as const;
type WidgetObject = KubeObject & { spec?: { message?: string }; status?: { conditions?: Condition[] } };

export function setupWidgetController(mgr: Manager, now: () => number): void {
  const reconcile = async (req: Request, ctx: ReconcileContext): Promise<ReconcileResult> => {
    const widget = mgr.cacheFor<WidgetObject>(Widget).get(req.namespace, req.name);
    if (!widget) return {}; // gone: its ConfigMap follows through the owner reference
    const metadata = { ...req, ownerReferences: [controllerReference(Widget, widget)] };
    const data = { message: widget.spec?.message ?? '' };
    const current = mgr.cacheFor(ConfigMap).get(req.namespace, req.name);
    await mgr.client.apply(ConfigMap, { apiVersion: 'v1', kind: 'ConfigMap', metadata, data }, { current });
    const ready = {
      type: 'Ready',
      status: 'True',
      reason: 'Provisioned',
      message: 'ConfigMap applied',
    } as const;
    const generation = widget.metadata?.generation ?? 0;
    const conditions = setCondition(
      widget.status?.conditions,
      { ...ready, observedGeneration: generation },
      now(),
    );
    const status = {
      apiVersion: 'example.io/v1',
      kind: 'Widget',
      metadata: { ...req },
      status: { conditions },
    };
    await mgr.client.applyStatus(Widget, status, { current: widget, signal: ctx.signal });
    return {};
  };
  mgr.controller().for(Widget).owns(ConfigMap).complete({ reconcile });
}
