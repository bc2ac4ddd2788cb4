// @oooi/xds — public entry. See README.md. The process is src/main.ts; these are the pieces it wires together,
// exported for bench/xds, which runs the same serving core under its own control channel.
export { SnapshotCache } from './cache/snapshot-cache';
export { EncodingMemo, buildSnapshot, type Snapshot, type TypeSnapshot } from './cache/snapshot';
export { AdsServer, type AdsServerOptions } from './server/ads-server';
export { Publisher, type PublishResult, type PublisherOptions } from './publisher';
export { XdsMetrics } from './metrics';
