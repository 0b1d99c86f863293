import type { DebPackage } from './deb-control.ts';
import type { Digest, HashFile } from './digest.ts';
import type { Exec } from './exec.ts';
import type { TarEntry } from './tar.ts';

/** The runtime settings of an image's config (the OCI `config` object); unset fields are left out. */
export interface ImageConfigSpec {
  readonly user?: string;
  /** `KEY=value` strings, in order. */
  readonly env?: readonly string[];
  readonly entrypoint?: readonly string[];
  readonly cmd?: readonly string[];
  readonly workingDir?: string;
  /** `port/protocol`, e.g. `8080/tcp`. */
  readonly exposedPorts?: readonly string[];
  readonly labels?: Readonly<Record<string, string>>;
}

/** A layer whose key is known and whose entries can be produced. */
export interface PlannedLayer {
  /** {@link layerKey} of everything that decides the layer's bytes. */
  readonly key: string;
  /** One line for humans, e.g. `debian: 23 packages (libc6 2.36-9+deb12u14, …)`. */
  readonly description: string;
  /** Debian packages in the layer, name → version (empty for other layers). */
  readonly packages: ReadonlyMap<string, string>;
  /**
   * Calls `use` with the layer's entries in canonical order and resolves with its result. Only called when the
   * layer is not cached; whatever the entries need on disk (an unpacked staging folder) lives until `use` ends.
   */
  withEntries<T>(use: (entries: readonly TarEntry[]) => Promise<T>): Promise<T>;
}

/** Debian package metadata and files; {@link Apt} is the real one. */
export interface PackageSource {
  /** The candidates of every package reachable from `roots` (a superset of the closure), by name. */
  index(roots: readonly string[]): Promise<ReadonlyMap<string, DebPackage>>;
  /** The local path of each package's `.deb`, by name, fetching what is missing. */
  download(packages: readonly DebPackage[]): Promise<ReadonlyMap<string, string>>;
}

/** What planning a layer may use. */
export interface PlanTools {
  readonly hashFile: HashFile;
  readonly apt: PackageSource;
  readonly exec: Exec;
  /** Whether this process runs as root (Debian layers can only be unpacked then). */
  readonly isRoot: boolean;
}

/**
 * A layer of an image, before planning. A definition shares a source object between images to share the
 * planning work (the builder plans each source object once per run); equal keys share the layer itself.
 */
export interface LayerSource {
  plan(tools: PlanTools): Promise<PlannedLayer>;
}

/** What the build found out, for an image's name. */
export interface ImageFacts {
  readonly manifestDigest: Digest;
  /** Debian package versions of all the image's layers, name → version. */
  readonly packages: ReadonlyMap<string, string>;
}

/** One image to build. */
export interface ImageDefinition {
  /** Short id for the CLI's `--only` and for file names, e.g. `redis` or `kafka-operator`. */
  readonly id: string;
  readonly layers: readonly LayerSource[];
  readonly config: ImageConfigSpec;
  /** The full reference it is imported as (`io.containerd.image.name`). Pure. */
  reference(facts: ImageFacts): string;
}
