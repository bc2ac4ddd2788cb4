// Which optional third-party kinds the apiserver serves, asked once at start (discovery of group/version). The
// NodePool and Machine watches are registered only when served: a cluster without HyperShift or Cluster API runs
// without source-scoped aliases instead of never syncing. A kind installed later needs a restart (logged).
import { isApiError, type KindDescriptor, type RestClient } from '@oooi/kube';

interface ResourceList {
  resources?: { name?: string }[];
}

export async function isServed(
  rest: RestClient,
  kind: KindDescriptor,
  signal?: AbortSignal,
): Promise<boolean> {
  const path = kind.group === '' ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  try {
    const list = await rest.request<ResourceList>({ method: 'GET', path, signal });
    return (list.resources ?? []).some((r) => r.name === kind.plural);
  } catch (err) {
    if (isApiError(err, 404)) return false;
    throw err;
  }
}
