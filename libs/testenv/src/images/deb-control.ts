/** One dependency clause: its alternatives in order, as package names without version constraints or `:any`. */
export type Alternatives = readonly string[];

/** A binary package as the apt index describes its candidate version (`apt-cache show --no-all-versions`). */
export interface DebPackage {
  readonly name: string;
  readonly version: string;
  readonly architecture: string;
  /** The `.deb` file name, the last part of the index's `Filename` (e.g. `libc6_2.36-9+deb12u14_amd64.deb`). */
  readonly file: string;
  /** The SHA-256 of the `.deb`, from the index (apt checks downloads against it). */
  readonly sha256: string;
  /** `Pre-Depends` then `Depends`: each clause lists its alternatives in order. */
  readonly depends: readonly Alternatives[];
}

/**
 * The packages in `apt-cache show` output (stanzas separated by blank lines; continuation lines start with a
 * space). Throws on a stanza without `Package`, `Version`, `Filename` or `SHA256`. Pure.
 */
export function parsePackages(text: string): DebPackage[] {
  const packages: DebPackage[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = parseStanza(stanza);
    if (fields.size === 0) continue;
    const get = (key: string): string => {
      const value = fields.get(key);
      if (value === undefined || value === '') throw new Error(`apt-cache show: a stanza has no ${key}:\n${stanza.slice(0, 200)}`);
      return value;
    };
    const filename = get('Filename');
    packages.push({
      name: get('Package'),
      version: get('Version'),
      architecture: fields.get('Architecture') ?? '',
      file: filename.slice(filename.lastIndexOf('/') + 1),
      sha256: get('SHA256'),
      depends: [...parseRelations(fields.get('Pre-Depends') ?? ''), ...parseRelations(fields.get('Depends') ?? '')],
    });
  }
  return packages;
}

/**
 * A relation field such as `libc6 (>= 2.34), debconf (>= 0.5) | debconf-2.0, perl:any` as clauses of package
 * names: `[['libc6'], ['debconf', 'debconf-2.0'], ['perl']]`. Version constraints and architecture qualifiers
 * are dropped: the resolver takes each package's candidate, which Debian's archive keeps consistent. Pure.
 */
export function parseRelations(field: string): Alternatives[] {
  return field
    .split(',')
    .map((clause) =>
      clause
        .split('|')
        .map((alt) => alt.trim().split(/[\s(:[<]/, 1)[0] ?? '')
        .filter((name) => name !== ''),
    )
    .filter((alts) => alts.length > 0);
}

function parseStanza(stanza: string): Map<string, string> {
  const fields = new Map<string, string>();
  let last: string | undefined;
  for (const line of stanza.split('\n')) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line)) {
      if (last !== undefined) fields.set(last, `${fields.get(last) ?? ''}\n${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon);
    fields.set(last, line.slice(colon + 1).trim());
  }
  return fields;
}
