// An immutable snapshot of what one Envoy should have: per type, each resource packed as google.protobuf.Any with
// its own content version (a hash of its encoded bytes), and a type version that hashes the (name, version) list.
// A resource that did not change keeps its version; the same resources always give the same versions, in any
// process (no counters).
import { createHash } from 'node:crypto';
import { Any, Cluster, Listener, TYPE_URL } from '@oooi/envoy';
import type { EnvoyResources, ResourceTypeUrl } from '@oooi/envoy';

export interface SnapshotResource {
  readonly name: string;
  readonly version: string;
  readonly any: Any;
}

export interface TypeSnapshot {
  readonly version: string;
  /** Sorted by name. */
  readonly resources: readonly SnapshotResource[];
}

export interface Snapshot {
  /** Hash over both type versions: what the status calls the desired version. */
  readonly version: string;
  readonly types: ReadonlyMap<ResourceTypeUrl, TypeSnapshot>;
}

export const SNAPSHOT_TYPES: readonly ResourceTypeUrl[] = [TYPE_URL.cluster, TYPE_URL.listener];

function hash(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

export function resource(typeUrl: string, name: string, bytes: Uint8Array): SnapshotResource {
  return { name, version: hash(bytes), any: Any.fromPartial({ typeUrl, value: Buffer.from(bytes) }) };
}

/** A type snapshot of the given resources; its version hashes the sorted name/version pairs. */
export function typeSnapshot(resources: readonly SnapshotResource[]): TypeSnapshot {
  const sorted = [...resources].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { version: hash(sorted.map((r) => `${r.name}\u0000${r.version}`).join('\n')), resources: sorted };
}

/**
 * Encoded and hashed resources by message object: a translator memo (ClusterMemo) hands back the same object for
 * an unchanged cluster, so with the same EncodingMemo it is encoded and hashed once, not on every snapshot.
 * Messages are never mutated after translation, so the object stands for its content; entries go when the objects
 * do. Whoever builds snapshots over time owns one (the Publisher, beside its ClusterMemo); a build without one
 * encodes everything.
 */
export class EncodingMemo {
  private readonly encoded = new WeakMap<object, SnapshotResource>();

  packed<T extends { name: string }>(typeUrl: string, m: T, encode: (m: T) => Uint8Array): SnapshotResource {
    let r = this.encoded.get(m);
    if (r === undefined || r.any.typeUrl !== typeUrl) {
      r = resource(typeUrl, m.name, encode(m));
      this.encoded.set(m, r);
    }
    return r;
  }
}

/** The snapshot of R; MEMO keeps the encodings of message objects seen before (see EncodingMemo). */
export function buildSnapshot(r: EnvoyResources, memo = new EncodingMemo()): Snapshot {
  const clusters = typeSnapshot(
    r.clusters.map((c) => memo.packed(TYPE_URL.cluster, c, (x) => Cluster.encode(x).finish())),
  );
  const listeners = typeSnapshot(
    r.listeners.map((l) => memo.packed(TYPE_URL.listener, l, (x) => Listener.encode(x).finish())),
  );
  return {
    version: hash(`${clusters.version}/${listeners.version}`),
    types: new Map([
      [TYPE_URL.cluster, clusters],
      [TYPE_URL.listener, listeners],
    ]),
  };
}
