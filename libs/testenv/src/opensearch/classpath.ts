import { basename } from 'node:path';

/**
 * The artifact name of a jar file: its file name without the version and `.jar`,
 * e.g. `netty-codec-http-4.1.125.Final.jar` → `netty-codec-http`, `zstd-jni-1.5.5-5.jar` → `zstd-jni`.
 * Pure.
 */
export function artifactName(jar: string): string {
  const name = basename(jar).replace(/\.jar$/, '');
  const versioned = /^(.+?)-\d[\w.-]*$/.exec(name);
  return versioned?.[1] ?? name;
}

/**
 * Joins the core jars with a plugin's jars, dropping every plugin jar whose artifact is already among
 * the core jars (or earlier plugin jars), so the class path holds one netty, one transport-netty4-client,
 * one http client. Core wins because the node's own code was built against it. Order is kept. Pure.
 */
export function mergeClasspath(coreJars: readonly string[], pluginJars: readonly string[]): string[] {
  const seen = new Set(coreJars.map(artifactName));
  const merged = [...coreJars];
  for (const jar of pluginJars) {
    const artifact = artifactName(jar);
    if (seen.has(artifact)) continue;
    seen.add(artifact);
    merged.push(jar);
  }
  return merged;
}
