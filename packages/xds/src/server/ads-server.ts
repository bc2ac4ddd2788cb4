// The ADS gRPC server (envoy.service.discovery.v3.AggregatedDiscoveryService) on one address. Each call gets its
// own stream object; the server only wires gRPC to it and counts streams. Keepalive is on so idle streams survive
// and dead peers are noticed.
import * as grpc from '@grpc/grpc-js';
import {
  DeltaDiscoveryRequest,
  DeltaDiscoveryResponse,
  DiscoveryRequest,
  DiscoveryResponse,
} from '@oooi/envoy';
import type { Logger } from 'pino';
import type { SnapshotCache } from '../cache/snapshot-cache';
import type { XdsMetrics } from '../metrics';
import { typeLabel } from '../metrics';
import type { StreamEvents } from './ack-tracker';
import { DeltaStream } from './delta-stream';
import { SotwStream } from './sotw-stream';

const SERVICE = '/envoy.service.discovery.v3.AggregatedDiscoveryService';

interface Codec<T> {
  encode(m: T): { finish(): Uint8Array };
  decode(b: Uint8Array): T;
}

function method<Req, Res>(name: string, req: Codec<Req>, res: Codec<Res>): grpc.MethodDefinition<Req, Res> {
  return {
    path: `${SERVICE}/${name}`,
    requestStream: true,
    responseStream: true,
    requestSerialize: (m: Req) => Buffer.from(req.encode(m).finish()),
    requestDeserialize: (b: Buffer) => req.decode(b),
    responseSerialize: (m: Res) => Buffer.from(res.encode(m).finish()),
    responseDeserialize: (b: Buffer) => res.decode(b),
  };
}

export const adsServiceDefinition = {
  streamAggregatedResources: method('StreamAggregatedResources', DiscoveryRequest, DiscoveryResponse),
  deltaAggregatedResources: method('DeltaAggregatedResources', DeltaDiscoveryRequest, DeltaDiscoveryResponse),
} satisfies grpc.ServiceDefinition;

export interface AdsServerOptions {
  readonly cache: SnapshotCache;
  /** host:port; port 0 picks a free one. */
  readonly listen: string;
  readonly log: Logger;
  readonly metrics: XdsMetrics;
  /** Extra callbacks (the status writer listens here). */
  readonly events?: StreamEvents;
  readonly now?: () => number;
}

export class AdsServer {
  private server: grpc.Server | undefined;
  private boundPort = 0;
  private streams = 0;
  private open = 0;

  constructor(private readonly o: AdsServerOptions) {}

  port(): number {
    return this.boundPort;
  }

  ready(): boolean {
    return this.server !== undefined;
  }

  /** ADS streams open now (an Envoy is connected while this is above zero). */
  openStreams(): number {
    return this.open;
  }

  private events(mode: string, id: string): StreamEvents {
    const log = this.o.log.child({ stream: id, mode });
    const m = this.o.metrics;
    const extra = this.o.events ?? {};
    return {
      onSend: (e) => {
        m.pushes.inc({ type: typeLabel(e.typeUrl) });
        log.debug(
          { node: e.node, typeUrl: e.typeUrl, version: e.version, nonce: e.nonce, resources: e.resources },
          'Response sent',
        );
        extra.onSend?.(e);
      },
      onAck: (e) => {
        m.ackLatency.observe({ type: typeLabel(e.typeUrl) }, e.latencyMs / 1000);
        log.info(
          { node: e.node, typeUrl: e.typeUrl, version: e.version, latencyMs: e.latencyMs },
          'Envoy ACKed',
        );
        extra.onAck?.(e);
      },
      onNack: (e) => {
        m.nacks.inc({ type: typeLabel(e.typeUrl) });
        log.warn({ node: e.node, typeUrl: e.typeUrl, version: e.version, err: e.message }, 'Envoy NACKed');
        extra.onNack?.(e);
      },
      onStaleNonce: (e) => {
        m.staleNonces.inc({ type: typeLabel(e.typeUrl) });
        log.debug({ node: e.node, typeUrl: e.typeUrl, nonce: e.nonce }, 'Stale nonce ignored');
        extra.onStaleNonce?.(e);
      },
    };
  }

  private serve<Req, Res>(
    mode: 'sotw' | 'delta',
    call: grpc.ServerDuplexStream<Req, Res>,
    make: (
      send: (r: Res) => void,
      events: StreamEvents,
      id: string,
    ) => { start(): void; close(): void; onRequest(r: Req): void },
  ): void {
    const id = `${mode}${++this.streams}`;
    const stream = make((r) => call.write(r), this.events(mode, id), id);
    this.o.metrics.connected.inc({ mode });
    this.open += 1;
    this.o.log.info({ stream: id, mode, peer: call.getPeer() }, 'ADS stream opened');
    let closed = false;
    const close = (why: string, err?: unknown): void => {
      if (closed) return;
      closed = true;
      stream.close();
      this.o.metrics.connected.dec({ mode });
      this.open -= 1;
      this.o.log.info({ stream: id, mode, why, err }, 'ADS stream closed');
    };
    call.on('data', (req: Req) => stream.onRequest(req));
    call.on('end', () => {
      close('end');
      call.end();
    });
    call.on('error', (err) => close('error', err));
    call.on('cancelled', () => close('cancelled'));
    stream.start();
  }

  /** Binds and serves; resolves once listening. Shuts down when SIGNAL aborts. */
  async start(signal: AbortSignal): Promise<void> {
    const now = this.o.now ?? (() => performance.now());
    const server = new grpc.Server({
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.http2.min_ping_interval_without_data_ms': 5_000,
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      'grpc.max_send_message_length': 256 * 1024 * 1024,
    });
    server.addService(adsServiceDefinition, {
      streamAggregatedResources: (call: grpc.ServerDuplexStream<DiscoveryRequest, DiscoveryResponse>) =>
        this.serve(
          'sotw',
          call,
          (send, events, streamId) => new SotwStream({ cache: this.o.cache, send, events, now, streamId }),
        ),
      deltaAggregatedResources: (
        call: grpc.ServerDuplexStream<DeltaDiscoveryRequest, DeltaDiscoveryResponse>,
      ) =>
        this.serve(
          'delta',
          call,
          (send, events, streamId) => new DeltaStream({ cache: this.o.cache, send, events, now, streamId }),
        ),
    });
    this.boundPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(this.o.listen, grpc.ServerCredentials.createInsecure(), (err, port) =>
        err ? reject(err) : resolve(port),
      ),
    );
    this.server = server;
    this.o.log.info({ listen: this.o.listen, port: this.boundPort }, 'ADS server listening');
    signal.addEventListener('abort', () => server.forceShutdown(), { once: true });
  }
}
