/**
 * Names another tool manages, per connection (Strimzi's `STRIMZI_IGNORED_USERS_PATTERN`, per connection and for every
 * kind): a connection's `spec.ignoredNames` lists glob patterns (`*` matches any run of characters, nothing else is
 * special) of names in the external system this operator never creates, changes, deletes or claims. A resource whose
 * name matches is refused with `IgnoredName` before anything external is touched; an object it created before the
 * pattern was added is left in place when the resource is deleted.
 */
import { TerminalError } from '../core/errors.ts';
import { ConnectionReasons } from './connection-reasons.ts';
import { parseConnectionExternalName } from './external-name.ts';


/** The first of `patterns` that matches all of `name`, or `undefined`. Pure. */
export function ignoringPattern(patterns: readonly string[], name: string): string | undefined {
  return patterns.find((pattern) => globToRegExp(pattern).test(name));
}

/**
 * Throws a stalling `TerminalError` `IgnoredName` when the name of `externalName` (`<connection>/<name>`) matches one
 * of `patterns`; `connectionKind` names the connection in the message. Pure otherwise.
 */
export function assertNotIgnored(patterns: readonly string[], externalName: string, connectionKind: string): void {
  const { connection, name } = parseConnectionExternalName(externalName);
  const pattern = ignoringPattern(patterns, name);
  if (pattern === undefined) return;
  throw new TerminalError(
    `${name} matches the ignored name "${pattern}" of ${connectionKind} "${connection}": another tool manages it, and this operator never creates, changes or deletes it`,
    ConnectionReasons.ignoredName,
  );
}

function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');
}
