// Types of own-source-map.mjs (plain JavaScript: scripts/bundle.mjs runs it with node alone).
export interface SourceMapV3 {
  version: number;
  file?: string;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
  [key: string]: unknown;
}

/** MAP with one mapping per own source line and none into dependencies, without sourcesContent and names. */
export function ownSourceMap(map: SourceMapV3, isOwn?: (source: string) => boolean): SourceMapV3;
