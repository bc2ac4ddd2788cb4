// --from-file --status-file: StatusTracker's view (status.xds and ConfigAccepted) as a JSON file, replaced
// atomically (written beside it, then renamed), so a reader never sees half a file. Written on every change, there
// being no apiserver to spare.
import { renameSync, writeFileSync } from 'node:fs';
import type { StatusTracker } from './status-tracker';

export class StatusFile {
  constructor(
    private readonly path: string,
    private readonly tracker: StatusTracker,
  ) {}

  /** Writes the current status now. */
  poke(): void {
    writeFileSync(`${this.path}.tmp`, `${JSON.stringify(this.tracker.current(), null, 2)}\n`);
    renameSync(`${this.path}.tmp`, this.path);
  }

  stop(): void {}
}
