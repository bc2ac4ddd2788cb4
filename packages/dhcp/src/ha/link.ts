// The pair's TCP channel (I/O): each server accepts its partner's connection and connects to its partner, and
// sends its own requests (heartbeats, lease updates, dump pages) on the connection it opened. Both ends run the
// handshake of wire.ts; a frame that fails its MAC, its sequence number or its shape ends the connection and is
// counted (onRefused), and nothing else happens: a stranger cannot write a lease nor crash the process.
import { connect as tcpConnect } from 'node:net';
import type { Socket } from 'node:net';
import {
  decodeMessage,
  MAX_BODY_BYTES,
  MAX_HELLO_BYTES,
  newNonce,
  sealFrame,
  sessionKey,
  takeFrame,
  verifyFrame,
} from './wire';
import type { Direction, Message, RefuseReason, Request, Response } from './wire';
import type { HaRole } from './state';

const HANDSHAKE_MS = 5000;

/** Reads authenticated frames from SOCKET: the hello with the secret first, then the session's frames in order. */
class FrameReader {
  private buf: Buffer = Buffer.alloc(0);
  private seq = 0;
  key: Buffer;

  constructor(
    private readonly socket: Socket,
    secret: Buffer,
    private readonly dir: Direction,
    private readonly o: { onMessage: (m: Message) => void; onRefused: (r: RefuseReason) => void },
  ) {
    this.key = secret;
    socket.on('data', (d: Buffer) => this.onData(d));
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    for (;;) {
      if (this.socket.destroyed) return;
      const f = takeFrame(this.buf, this.seq === 0 ? MAX_HELLO_BYTES : MAX_BODY_BYTES);
      if (f.kind === 'more') return;
      if (f.kind === 'refused') return this.refuse(f.reason);
      this.buf = Buffer.from(f.rest);
      if (!verifyFrame(this.key, this.dir, this.seq, f)) return this.refuse('bad_mac');
      const m = decodeMessage(f.body);
      if (m === undefined || (m.t === 'hello') !== (this.seq === 0)) return this.refuse('malformed');
      this.seq++;
      this.o.onMessage(m);
    }
  }

  refuse(r: RefuseReason): void {
    this.o.onRefused(r);
    this.socket.destroy();
  }
}

class FrameWriter {
  private seq = 0;
  key: Buffer;
  constructor(
    private readonly socket: Socket,
    secret: Buffer,
    private readonly dir: Direction,
  ) {
    this.key = secret;
  }
  send(m: Message): void {
    if (!this.socket.destroyed) this.socket.write(sealFrame(this.key, this.dir, this.seq++, m));
  }
}

const other = (r: HaRole): HaRole => (r === 'primary' ? 'standby' : 'primary');

export interface AcceptOptions {
  readonly secret: Buffer;
  readonly role: HaRole;
  readonly handle: (r: Request) => Promise<Response>;
  readonly onRefused: (r: RefuseReason) => void;
}

/** Serves the partner's requests on an accepted SOCKET. */
export function acceptPartner(socket: Socket, o: AcceptOptions): void {
  socket.setNoDelay(true);
  socket.on('error', () => undefined);
  const timer = setTimeout(() => reader.refuse('unexpected'), HANDSHAKE_MS);
  socket.on('close', () => clearTimeout(timer));
  const writer = new FrameWriter(socket, o.secret, 1);
  const reader: FrameReader = new FrameReader(socket, o.secret, 0, {
    onRefused: o.onRefused,
    onMessage: (m) => {
      if (m.t === 'hello') {
        if (m.role !== other(o.role) || m.echo !== undefined) return reader.refuse('wrong_role');
        clearTimeout(timer);
        const nonce = newNonce();
        writer.send({ t: 'hello', role: o.role, nonce: nonce.toString('hex'), echo: m.nonce });
        const key = sessionKey(o.secret, Buffer.from(m.nonce, 'hex'), nonce);
        reader.key = key;
        writer.key = key;
        return;
      }
      if (m.t !== 'heartbeat' && m.t !== 'leases' && m.t !== 'dump' && m.t !== 'leaving')
        return reader.refuse('unexpected');
      o.handle(m).then(
        (r) => writer.send(r),
        (err: unknown) => writer.send({ t: 'failed', id: m.id, why: (err as Error).message ?? 'failed' }),
      );
    },
  });
}

export interface ConnectOptions {
  readonly host: string;
  readonly port: number;
  readonly secret: Buffer;
  readonly role: HaRole;
  readonly onRefused: (r: RefuseReason) => void;
}

type Pending = { resolve: (r: Response) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

/** The connection this server opened to its partner, for its own requests. */
export class PartnerLink {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closedWhy: Error | undefined;
  private readonly closeHooks: (() => void)[] = [];

  private constructor(
    private readonly socket: Socket,
    private readonly writer: FrameWriter,
  ) {}

  /** Connects and runs the handshake; rejects when either fails within the handshake time. */
  static open(o: ConnectOptions): Promise<PartnerLink> {
    return new Promise((resolve, reject) => {
      const socket = tcpConnect({ host: o.host, port: o.port });
      socket.setNoDelay(true);
      const writer = new FrameWriter(socket, o.secret, 0);
      const link = new PartnerLink(socket, writer);
      const nonce = newNonce();
      const fail = (e: Error) => {
        clearTimeout(timer);
        link.close(e);
        reject(e);
      };
      const timer = setTimeout(() => fail(new Error('handshake timed out')), HANDSHAKE_MS);
      let up = false;
      const reader: FrameReader = new FrameReader(socket, o.secret, 1, {
        onRefused: (r) => {
          o.onRefused(r);
          if (!up) fail(new Error(`partner refused: ${r}`));
        },
        onMessage: (m) => {
          if (m.t === 'hello') {
            if (m.role !== other(o.role) || m.echo !== nonce.toString('hex'))
              return reader.refuse('wrong_role');
            const key = sessionKey(o.secret, nonce, Buffer.from(m.nonce, 'hex'));
            reader.key = key;
            writer.key = key;
            up = true;
            clearTimeout(timer);
            return resolve(link);
          }
          if (
            m.t === 'heartbeat-ok' ||
            m.t === 'leases-ok' ||
            m.t === 'ok' ||
            m.t === 'failed' ||
            m.t === 'dump-ok'
          )
            return link.answered(m);
          reader.refuse('unexpected');
        },
      });
      socket.on('error', (e) => (up ? link.close(e) : fail(e)));
      socket.on('close', () => (up ? link.close(new Error('connection closed')) : fail(new Error('closed'))));
      socket.on('connect', () => writer.send({ t: 'hello', role: o.role, nonce: nonce.toString('hex') }));
    });
  }

  get closed(): boolean {
    return this.closedWhy !== undefined;
  }

  onClose(f: () => void): void {
    if (this.closed) f();
    else this.closeHooks.push(f);
  }

  /** Sends R; resolves with the partner's answer, rejects after TIMEOUTMS (and closes the link: a stuck partner is gone). */
  request(r: DistributiveOmit<Request, 'id'>, timeoutMs: number): Promise<Response> {
    if (this.closedWhy !== undefined) return Promise.reject(this.closedWhy);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.close(new Error('partner did not answer in time')), timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.writer.send({ ...r, id });
    });
  }

  private answered(m: Response): void {
    const p = this.pending.get(m.id);
    if (p === undefined) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.t === 'failed') p.reject(new Error(`partner: ${m.why}`));
    else p.resolve(m);
  }

  close(why: Error): void {
    if (this.closedWhy !== undefined) return;
    this.closedWhy = why;
    this.socket.destroy();
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(why);
    }
    this.pending.clear();
    for (const f of this.closeHooks.splice(0)) f();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
