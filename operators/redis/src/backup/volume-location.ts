/**
 * The location of a backup in a volume claim, as `status.location` records it: `pvc://<claimName>/<key>` (the key
 * relative to the claim's root). Restores read the same format. Pure.
 */
import { TerminalError, Reasons } from '@domain-operators/reconcile';

/** `pvc://<claimName>/<key>`. Pure. */
export function volumeLocation(claimName: string, key: string): string {
  return `pvc://${claimName}/${key}`;
}

/** The key of `pvc://<claimName>/<key>`. Throws `TerminalError` for a location in another claim. Pure. */
export function keyOfVolumeLocation(location: string, claimName: string): string {
  const prefix = volumeLocation(claimName, '');
  if (!location.startsWith(prefix) || location.length === prefix.length) throw new TerminalError(`status.location ${location} is not in claim ${claimName}`, Reasons.invalidSpec);
  return location.slice(prefix.length);
}
