import type { KubeObject, ObjectReader } from '@oooi/kube';
import { PersistentVolumeClaimKind } from './kinds';
import { workloadChildReaders, workloadChildSteps, workloadWatched } from './workload-children';

const body = (kind: string): KubeObject => ({ kind, metadata: { name: 'w', namespace: 'ns' } });
const readers = workloadChildReaders((kind) => ({ get: () => undefined, kind: kind.kind }) as ObjectReader);
const children = {
  serviceAccount: body('ServiceAccount'),
  role: body('Role'),
  roleBinding: body('RoleBinding'),
  configMap: body('ConfigMap'),
  service: body('Service'),
  deployment: body('Deployment'),
};
const at = { namespace: 'ns', name: 'w' };

describe('workloadChildSteps', () => {
  test('the one apply order, the Deployment last; each step reads its own kind’s cache', () => {
    const claim = {
      kind: PersistentVolumeClaimKind,
      body: body('PersistentVolumeClaim'),
      reader: readers.roles,
    };
    const { steps } = workloadChildSteps(readers, { ...children, networkPolicy: body('NetworkPolicy') }, at, [
      claim,
    ]);
    expect(steps.map((s) => s.kind.kind)).toEqual([
      'ServiceAccount',
      'Role',
      'ConfigMap',
      'PersistentVolumeClaim',
      'Service',
      'NetworkPolicy',
      'RoleBinding',
      'Deployment',
    ]);
    for (const s of steps.filter((x) => x !== claim))
      expect((s.reader as unknown as { kind: string }).kind).toBe(s.kind.kind);
  });

  test('everything but the RoleBinding and the Deployment goes at once; the RoleBinding after its Role; the Deployment, and each HA replica, after what comes before', () => {
    const { steps } = workloadChildSteps(readers, { ...children, replicas: [body('Deployment')] }, at);
    expect(steps.map((s) => `${s.kind.kind}${s.afterEarlier ? ' (after earlier)' : ''}`)).toEqual([
      'ServiceAccount',
      'Role',
      'ConfigMap',
      'Service',
      'RoleBinding (after earlier)',
      'Deployment (after earlier)',
      'Deployment (after earlier)',
    ]);
  });

  test('with the policies off, the NetworkPolicy is not applied but listed as absent', () => {
    const out = workloadChildSteps(readers, children, at);
    expect(out.steps.map((s) => s.kind.kind)).not.toContain('NetworkPolicy');
    expect(out.absent.map((r) => `${r.kind.kind} ${r.namespace}/${r.name}`)).toEqual(['NetworkPolicy ns/w']);
    expect(
      workloadChildSteps(readers, { ...children, networkPolicy: body('NetworkPolicy') }, at).absent,
    ).toEqual([]);
  });

  test('the status reads the Service and the Deployment', () => {
    expect(workloadWatched(readers, at).map((r) => r.kind.kind)).toEqual(['Service', 'Deployment']);
  });
});
