import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import { runToCompletion } from '../process.ts';
import { mergeClasspath } from './classpath.ts';
import type { OpenSearchLayout } from './layout.ts';

/** The ready-to-run node: one de-duplicated class path holding core, launcher and security plugin jars. */
export interface OpenSearchBuild {
  /** Jars joined with the platform path delimiter. */
  readonly classpath: string;
}

/**
 * Builds the launcher and gathers the jars with Maven into `layout.buildDir` (`lib/`, `plugins/`), then writes
 * `classpath.txt`. Cached: keyed by the hash of the pom and the Java sources, and reused while every jar it
 * names exists, so a warm call runs no Maven. Not safe against two concurrent first builds.
 */
export async function ensureOpenSearchBuild(ctx: ComponentContext, layout: OpenSearchLayout): Promise<OpenSearchBuild> {
  const javaDir = join(ctx.paths.testenvDir, 'java', 'opensearch');
  const classpathFile = join(layout.buildDir, 'classpath.txt');
  const stampFile = join(layout.buildDir, 'source.sha256');
  const stamp = await sourceHash(javaDir);
  const cached = await readCached(classpathFile, stampFile, stamp);
  if (cached !== undefined) return { classpath: cached };

  ctx.progress(`building the OpenSearch launcher with Maven into ${layout.buildDir} (first run only)`);
  const libDir = join(layout.buildDir, 'lib');
  const pluginDir = join(layout.buildDir, 'plugins', 'opensearch-security');
  await rm(layout.buildDir, { recursive: true, force: true });
  await mkdir(layout.buildDir, { recursive: true });
  await runToCompletion('mvn', ['-B', '-q', '-f', join(javaDir, 'pom.xml'), 'package', `-Dtestenv.out=${layout.buildDir}`], {
    cwd: javaDir,
    logFile: layout.setupLogFile,
  });
  const jars = mergeClasspath(await jarsIn(libDir), await jarsIn(pluginDir));
  const classpath = jars.join(delimiter);
  await writeFile(classpathFile, `${classpath}\n`);
  await writeFile(stampFile, `${stamp}\n`);
  return { classpath };
}

async function readCached(classpathFile: string, stampFile: string, stamp: string): Promise<string | undefined> {
  try {
    if ((await readFile(stampFile, 'utf8')).trim() !== stamp) return undefined;
    const classpath = (await readFile(classpathFile, 'utf8')).trim();
    const complete = classpath !== '' && classpath.split(delimiter).every((jar) => existsSync(jar));
    return complete ? classpath : undefined;
  } catch {
    return undefined;
  }
}

async function jarsIn(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.jar')).sort();
  if (names.length === 0) throw new Error(`opensearch: Maven left no jars in ${dir}`);
  return names.map((name) => join(dir, name));
}

/** Hash of everything that shapes the build: the pom and every Java source, in a stable order. */
async function sourceHash(javaDir: string): Promise<string> {
  const hash = createHash('sha256');
  const files = ['pom.xml', ...(await listFiles(join(javaDir, 'src'), 'src'))].sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(join(javaDir, file)));
  }
  return hash.digest('hex');
}

async function listFiles(dir: string, relative: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? listFiles(join(dir, entry.name), join(relative, entry.name))
        : Promise.resolve([join(relative, entry.name)]),
    ),
  );
  return nested.flat();
}
