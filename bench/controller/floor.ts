// The apiserver's floor for a world of N attachments, on the control plane the run used (run.ts): what
// converge/floor divides by.
import { ATTACHMENT_WORKERS } from '@oooi/controller';
import { ApplyPatchContentType, mapLimited, resourcePath, type KubeConfigRest } from '@oooi/kube';
import type { Rig } from '@oooi/rig';
import { apiserverWriteStats, cpuLine, sampleCpu, serverTimes } from './observe';
import { attachment, kinds, ns } from './world';

export interface FloorContext {
  rig: Rig;
  rest: KubeConfigRest;
  kubectl: string;
}

/**
 * The apiserver's floor for this world, measured after the controller has stopped: one status server-side apply per
 * attachment (a condition that changes, so each is a real write), ATTACHMENT_WORKERS in flight, as the controller
 * writes them. Convergence needs at least these writes (and the children's); converge/floor says how close it gets.
 */
async function apiserverFloor(ctx: FloorContext, n: number): Promise<number> {
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const t0 = Date.now();
  await mapLimited(
    Array.from({ length: n }, (_, i) => attachment(i)),
    ATTACHMENT_WORKERS,
    (a) =>
      ctx.rest.request({
        method: 'PATCH',
        path: resourcePath(kinds.InfraClusterAttachment, {
          namespace: ns,
          name: a.metadata?.name,
          subresource: 'status',
        }),
        query: { fieldManager: 'bench-floor', force: true },
        contentType: ApplyPatchContentType,
        body: {
          apiVersion: a.apiVersion,
          kind: a.kind,
          metadata: { name: a.metadata?.name, namespace: ns },
          status: {
            conditions: [
              {
                type: 'BenchFloor',
                status: 'True',
                reason: 'Floor',
                message: stamp,
                lastTransitionTime: stamp,
              },
            ],
          },
        },
      }),
  );
  return (Date.now() - t0) / 1000;
}

/** The floor (apiserverFloor) on this control plane, with the CPU each process used and the server's times. */
export async function measureFloor(
  ctx: FloorContext & { pids: Map<string, number>; note: (line: string) => void },
  n: number,
  label: string,
): Promise<{ floorSeconds: number; floorCpu: string; floorServer: string }> {
  const cpuBeforeFloor = sampleCpu(ctx.pids);
  const beforeFloor = await apiserverWriteStats(ctx.kubectl, ctx.rig.kubeconfig);
  const floorSeconds = await apiserverFloor(ctx, n);
  const floorCpu = cpuLine(cpuBeforeFloor, sampleCpu(ctx.pids));
  const floorServer = serverTimes(beforeFloor, await apiserverWriteStats(ctx.kubectl, ctx.rig.kubeconfig));
  ctx.note(
    `${label} N=${n}: apiserver floor ${floorSeconds.toFixed(1)} s (${n} status applies, ${ATTACHMENT_WORKERS} in flight)`,
  );
  return { floorSeconds, floorCpu, floorServer };
}
