// A fake Envoy on the other end of an ADS stream (no gRPC). It checks the protocol on every response: nonces
// strictly increase, versions are set, every resource's type URL is the response's, and make-before-break holds
// (a listener update refers only to clusters Envoy has ACKed; a cluster update never drops a cluster that the
// listeners Envoy holds still use).
import { Cluster, DiscoveryRequest, Listener, TYPE_URL } from '@oooi/envoy';
import type { DiscoveryResponse } from '@oooi/envoy';

function clustersUsed(l: Listener): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'cluster' && typeof x === 'string') out.push(x);
        else walk(x);
      }
    }
  };
  walk(Listener.toJSON(l));
  return out;
}

export class FakeEnvoy {
  readonly responses: DiscoveryResponse[] = [];
  readonly violations: string[] = [];
  private lastNonce = 0;
  /** What this Envoy runs (after ACKs). */
  acked = {
    clusters: new Set<string>(),
    listeners: new Map<string, Listener>(),
    cdsVersion: '',
    ldsVersion: '',
  };

  constructor(readonly node = 'test-node') {}

  receive = (r: DiscoveryResponse): void => {
    this.responses.push(r);
    const n = Number(r.nonce.split('-').pop());
    if (!(n > this.lastNonce)) this.violations.push(`nonce ${r.nonce} does not increase`);
    this.lastNonce = n;
    if (r.versionInfo === '') this.violations.push(`empty version (nonce ${r.nonce})`);
    for (const a of r.resources)
      if (a.typeUrl !== r.typeUrl) this.violations.push(`${a.typeUrl} in a ${r.typeUrl} response`);
    if (r.typeUrl === TYPE_URL.listener) {
      for (const a of r.resources) {
        for (const c of clustersUsed(Listener.decode(a.value))) {
          if (!this.acked.clusters.has(c)) this.violations.push(`listener uses cluster ${c} before its ACK`);
        }
      }
    }
    if (r.typeUrl === TYPE_URL.cluster) {
      const names = new Set(r.resources.map((a) => Cluster.decode(a.value).name));
      for (const l of this.acked.listeners.values()) {
        for (const c of clustersUsed(l))
          if (!names.has(c)) this.violations.push(`cluster ${c} removed while listener ${l.name} uses it`);
      }
    }
  };

  last(typeUrl: string): DiscoveryResponse | undefined {
    return [...this.responses].reverse().find((r) => r.typeUrl === typeUrl);
  }

  count(typeUrl: string): number {
    return this.responses.filter((r) => r.typeUrl === typeUrl).length;
  }

  request(typeUrl: string, first = false): DiscoveryRequest {
    return DiscoveryRequest.fromPartial({ typeUrl, ...(first ? { node: { id: this.node } } : {}) });
  }

  /** ACK the last response of TYPEURL (and apply it). */
  ack(typeUrl: string): DiscoveryRequest {
    const r = this.last(typeUrl)!;
    if (typeUrl === TYPE_URL.cluster) {
      this.acked.clusters = new Set(r.resources.map((a) => Cluster.decode(a.value).name));
      this.acked.cdsVersion = r.versionInfo;
    } else {
      this.acked.listeners = new Map(
        r.resources.map((a) => {
          const l = Listener.decode(a.value);
          return [l.name, l];
        }),
      );
      this.acked.ldsVersion = r.versionInfo;
    }
    return DiscoveryRequest.fromPartial({ typeUrl, versionInfo: r.versionInfo, responseNonce: r.nonce });
  }

  nack(typeUrl: string, message: string): DiscoveryRequest {
    const r = this.last(typeUrl)!;
    const version = typeUrl === TYPE_URL.cluster ? this.acked.cdsVersion : this.acked.ldsVersion;
    return DiscoveryRequest.fromPartial({
      typeUrl,
      versionInfo: version,
      responseNonce: r.nonce,
      errorDetail: { code: 3, message },
    });
  }
}
