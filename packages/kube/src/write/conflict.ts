// Server-side apply conflicts as a typed error. A 409 on apply means another field manager owns a field we set
// with a different value; retrying cannot fix that, so it is a TerminalError: recorded, not retried forever.
import { TerminalError } from '../controller/reconcile';
import type { ApiError } from '../rest/rest';

export interface ConflictTarget {
  kind: string;
  namespace: string;
  name: string;
  subresource?: string;
}

/** The other managers and the fields in dispute, from the `Status` causes of a 409. */
export function parseConflict(err: ApiError): { managers: string[]; fields: string[] } {
  const managers = new Set<string>();
  const fields = new Set<string>();
  const causes = err.status.details?.causes ?? [];
  const texts = causes.length > 0 ? causes.map((c) => c.message ?? '') : [err.status.message ?? ''];
  for (const text of texts) {
    for (const match of text.matchAll(/conflicts? with "([^"]+)"/g)) if (match[1]) managers.add(match[1]);
  }
  for (const cause of causes) if (cause.field) fields.add(cause.field);
  return { managers: [...managers].sort(), fields: [...fields].sort() };
}

/** An apply was refused because fields belong to other managers. */
export class ApplyConflictError extends TerminalError {
  override readonly name = 'ApplyConflictError';
  readonly target: ConflictTarget;
  /** The other field managers named by the API server. */
  readonly managers: string[];
  /** The disputed field paths, e.g. `.data.key`. */
  readonly fields: string[];

  constructor(target: ConflictTarget, err: ApiError) {
    const { managers, fields } = parseConflict(err);
    const where = `${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}${target.subresource ? `/${target.subresource}` : ''}`;
    super(
      `apply conflict on ${where}: ${fields.join(', ') || 'fields'} managed by ${managers.map((m) => JSON.stringify(m)).join(', ') || 'another manager'}`,
      { cause: err },
    );
    this.target = target;
    this.managers = managers;
    this.fields = fields;
  }
}
