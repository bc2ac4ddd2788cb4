// A real grpc-js client of the ADS service, over loopback, for tests of AdsServer: it opens
// StreamAggregatedResources or DeltaAggregatedResources with the server's own method definitions and hands the
// responses out in the order they arrived.
import * as grpc from '@grpc/grpc-js';
import type {
  DeltaDiscoveryRequest,
  DeltaDiscoveryResponse,
  DiscoveryRequest,
  DiscoveryResponse,
} from '@oooi/envoy';
import { adsServiceDefinition } from '../server/ads-server';

/** One ADS stream seen from the client: send requests, take responses in order, see how it ended. */
export class AdsClientStream<Req, Res> {
  private readonly queue: Res[] = [];
  private readonly waiting: { resolve: (r: Res) => void; reject: (e: Error) => void }[] = [];
  private ended: Error | undefined;
  /** Resolves with the call's status once the stream is over (cancelled, ended, or the server went away). */
  readonly done: Promise<grpc.StatusObject>;

  constructor(private readonly call: grpc.ClientDuplexStream<Req, Res>) {
    call.on('data', (r: Res) => {
      const w = this.waiting.shift();
      if (w) w.resolve(r);
      else this.queue.push(r);
    });
    this.done = new Promise((resolve) => call.on('status', resolve));
    const end = (why: Error): void => {
      this.ended ??= why;
      for (const w of this.waiting.splice(0)) w.reject(why);
    };
    call.on('error', (err: Error) => end(err));
    call.on('end', () => end(new Error('stream ended')));
  }

  send(req: Req): void {
    this.call.write(req);
  }

  /** The next response not yet taken (rejects when the stream ends first). */
  next(): Promise<Res> {
    const r = this.queue.shift();
    if (r !== undefined) return Promise.resolve(r);
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Responses that arrived and were not taken yet. */
  pending(): number {
    return this.queue.length;
  }

  /** Half-closes the stream (the server sees 'end'). */
  end(): void {
    this.call.end();
  }

  cancel(): void {
    this.call.cancel();
  }
}

export class AdsClient {
  private readonly client: grpc.Client;

  constructor(port: number) {
    this.client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  }

  sotw(): AdsClientStream<DiscoveryRequest, DiscoveryResponse> {
    const m = adsServiceDefinition.streamAggregatedResources;
    return new AdsClientStream(
      this.client.makeBidiStreamRequest(m.path, m.requestSerialize, m.responseDeserialize),
    );
  }

  delta(): AdsClientStream<DeltaDiscoveryRequest, DeltaDiscoveryResponse> {
    const m = adsServiceDefinition.deltaAggregatedResources;
    return new AdsClientStream(
      this.client.makeBidiStreamRequest(m.path, m.requestSerialize, m.responseDeserialize),
    );
  }

  close(): void {
    this.client.close();
  }
}
