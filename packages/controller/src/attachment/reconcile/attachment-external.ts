// The external-Service part of an attachment's pass: apply `<attachment>-proxy-external` (server-side apply,
// `current` from the cache, so the load balancer's status updates and the allocated ClusterIP and NodePort never
// cause a write), delete it when disabled, and report its address. A Service of that name that the attachment does
// not control is left alone and reported; one the apiserver refuses (422) is reported, not retried in a loop (the
// one child-apply path, @oooi/kube's applyChild).
import type { InfraClusterAttachment } from '@oooi/api';
import { applyChild, type KubeClient } from '@oooi/kube';
import type { ControllerCaches, Problem } from '../../infra';
import {
  desiredExternalService,
  externalServiceName,
  externalServiceStatus,
} from '../desired/external-service';
import type { ExternalServiceStatus } from '../desired/external-service';
import { Reason } from '../../infra';
import { ServiceKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';

export interface ExternalPass {
  readonly status?: ExternalServiceStatus;
  readonly problem?: Problem;
}

export async function externalServicePass(
  o: { readonly caches: ControllerCaches; readonly client: KubeClient },
  a: InfraClusterAttachment,
  signal?: AbortSignal,
): Promise<ExternalPass> {
  const namespace = namespaceOf(a);
  const name = externalServiceName(a);
  const live = o.caches.services.get(namespace, name);
  const proxy = o.caches.proxyServers.get(namespace, `${a.spec.infraRef.name}-proxy`);
  const plan = desiredExternalService({ attachment: a, live, targetPort: proxy?.spec.port ?? 443 });
  switch (plan.action) {
    case 'none':
      return {};
    case 'delete':
      await o.client.delete(ServiceKind, { namespace, name }, signal);
      return {};
    case 'blocked':
      return { problem: plan.problem };
    case 'apply': {
      const out = await applyChild({
        client: o.client,
        kind: ServiceKind,
        body: plan.object,
        ...(live ? { current: live } : {}),
        ...(signal ? { signal } : {}),
      });
      if (out.state === 'applied') return { status: externalServiceStatus(name, live) };
      return {
        problem: {
          reason: Reason.ChildRejected,
          message: `Service ${namespace}/${name} was rejected by the apiserver: ${out.rejection.message}`,
        },
      };
    }
  }
}
