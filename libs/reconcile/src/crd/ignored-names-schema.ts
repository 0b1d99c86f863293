/**
 * The schema of a connection's `spec.ignoredNames` (connection/ignored-names.ts), written once for every operator,
 * with the description `kubectl explain` shows.
 */
import { Type } from '@sinclair/typebox';
import type { TArray, TString } from '@sinclair/typebox';

/** `spec.ignoredNames` of a connection to `system` whose names are `examples` (e.g. `topics and users`). Pure. */
export function ignoredNamesField(system: string, examples: string): TArray<TString> {
  return Type.Array(Type.String({ minLength: 1, maxLength: 253, description: 'A glob pattern: * matches any run of characters, nothing else is special.' }), {
    description:
      `Names in ${system} (${examples}) that another tool manages: glob patterns, matched against the whole name. ` +
      'A resource whose name matches is refused with reason IgnoredName and nothing is created, changed or deleted; an object ' +
      'created before its pattern was added is left in place when its resource is deleted.',
    maxItems: 100,
  });
}
