// Packs a generated message into google.protobuf.Any (typed_config) with its canonical type URL.
import { Any } from '../generated/google/protobuf/any';
import type { UnknownMessage } from '../generated/typeRegistry';

interface Packable<T> {
  readonly $type: string;
  encode(message: T): { finish(): Uint8Array };
  fromPartial(object: never): T;
}

export function pack<T extends UnknownMessage>(type: Packable<T>, message: T): Any {
  return Any.fromPartial({
    typeUrl: `type.googleapis.com/${type.$type}`,
    value: Buffer.from(type.encode(message).finish()),
  });
}
