/** One row of `ctr images ls` or `ctr images check`. */
export interface CtrImage {
  readonly reference: string;
  /** The image's target digest: for an image imported from our archives, its manifest digest. */
  readonly digest: string;
  /** From `images check` only (its `UNPACKED` column); `undefined` for `images ls`. */
  readonly unpacked?: boolean;
}

/**
 * The rows of the table `ctr images ls` or `ctr images check` prints (containerd 1.6 and 2.x): `REF TYPE DIGEST …`
 * with a header line. Columns are split on runs of spaces; REF, TYPE and DIGEST never hold spaces (SIZE and STATUS
 * may, e.g. `1.2 MiB` or `complete (3/3)`), and `check`'s last column is `UNPACKED`. Lines that are not rows are
 * ignored. Pure.
 */
export function parseCtrImages(output: string): CtrImage[] {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const header = lines[0]?.trim().split(/\s+/) ?? [];
  if (header[0] !== 'REF' || header[2] !== 'DIGEST') return [];
  const hasUnpacked = header.at(-1) === 'UNPACKED';
  const rows: CtrImage[] = [];
  for (const line of lines.slice(1)) {
    const cells = line.trim().split(/\s+/);
    const [reference, , digest] = cells;
    if (reference === undefined || digest === undefined || !/^sha256:[0-9a-f]{64}$/.test(digest)) continue;
    rows.push(hasUnpacked ? { reference, digest, unpacked: cells.at(-1) === 'true' } : { reference, digest });
  }
  return rows;
}
