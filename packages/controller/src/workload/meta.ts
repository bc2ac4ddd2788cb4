// Object metadata every feature reads the same way.

/** The namespace an object lives in: an object without one (as read from a file) is in `default`. */
export function namespaceOf(obj: { readonly metadata: { readonly namespace?: string } }): string {
  return obj.metadata.namespace || 'default';
}
