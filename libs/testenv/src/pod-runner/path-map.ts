import { posix } from 'node:path';

/** One container path backed by a host path (a volume directory, or a file in it for `subPath` mounts). */
export interface PathMapping {
  /** Absolute path inside the container, e.g. `/etc/redis`. */
  readonly containerPath: string;
  /** Absolute host path it stands for. */
  readonly hostPath: string;
}

function normalise(path: string): string {
  const clean = posix.normalize(path);
  return clean.length > 1 && clean.endsWith('/') ? clean.slice(0, -1) : clean;
}

/** Mappings sorted longest container path first, without root (`/`) mounts and duplicate container paths. Pure. */
export function sortMappings(mappings: readonly PathMapping[]): PathMapping[] {
  const seen = new Set<string>();
  const out: PathMapping[] = [];
  for (const m of mappings) {
    const containerPath = normalise(m.containerPath);
    if (containerPath === '/' || !containerPath.startsWith('/') || seen.has(containerPath)) continue;
    seen.add(containerPath);
    out.push({ containerPath, hostPath: m.hostPath });
  }
  return out.sort((a, b) => b.containerPath.length - a.containerPath.length);
}

/**
 * The host path for a container path: the longest mapping whose container path equals `path` or is a
 * directory prefix of it (`/data` maps `/data/x` but not `/database`). `undefined` when no mount covers it. Pure.
 */
export function mapPath(path: string, mappings: readonly PathMapping[]): string | undefined {
  const target = normalise(path);
  for (const m of sortMappings(mappings)) {
    if (target === m.containerPath) return m.hostPath;
    if (target.startsWith(`${m.containerPath}/`)) return m.hostPath + target.slice(m.containerPath.length);
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Rewrites every occurrence of a mapped container path inside free text (an argument or a config file) to its
 * host path. An occurrence counts when it starts the text or follows whitespace, a quote, `=`, `:` or `,`,
 * and ends the text or is followed by `/`, whitespace, a quote, `,` or `;`. Longest container paths win. Pure.
 */
export function mapPathsInText(text: string, mappings: readonly PathMapping[]): string {
  const sorted = sortMappings(mappings);
  if (sorted.length === 0) return text;
  const alternatives = sorted.map((m) => escapeRegExp(m.containerPath)).join('|');
  const pattern = new RegExp(`(^|[\\s"'=:,])(${alternatives})(?=$|[/\\s"',;])`, 'gm');
  const byPath = new Map(sorted.map((m) => [m.containerPath, m.hostPath]));
  return text.replace(pattern, (_match, lead: string, path: string) => `${lead}${byPath.get(path) ?? path}`);
}
