import { TerminalError } from '../core/errors.ts';
import { Reasons } from '../core/reasons.ts';

/**
 * The external name of an object a dependent manages through a connection: `<connection>/<name>`, so names are
 * unique per cluster and the claim index settles conflicts per connection. Pure.
 */
export function connectionExternalName(connection: string, name: string): string {
  return `${connection}/${name}`;
}

/**
 * Splits an external name made by {@link connectionExternalName} at its first `/` (connection names hold none; the
 * rest may). Throws `TerminalError` `InvalidSpec` for a name without `/`. Pure.
 */
export function parseConnectionExternalName(externalName: string): { readonly connection: string; readonly name: string } {
  const slash = externalName.indexOf('/');
  if (slash < 0) throw new TerminalError(`external name ${externalName} is not <connection>/<name>`, Reasons.invalidSpec);
  return { connection: externalName.slice(0, slash), name: externalName.slice(slash + 1) };
}
