import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import { runToCompletion } from '../process.ts';

/** The cached, ready-to-run Kafka build: a resolved class path and the compiled health probe. */
export interface KafkaBuild {
  /** Jars of the broker, its clients and the log4j2 binding, joined with the platform path delimiter. */
  readonly classpath: string;
  /** Folder holding `KafkaProbe.class`; append it to `classpath` to run the probe. */
  readonly probeDir: string;
  /** `libs/testenv/java/kafka/log4j2.properties`. */
  readonly log4jConfig: string;
}

/**
 * Resolves the broker class path with Maven and compiles the probe, each cached under
 * `<cacheDir>/kafka/<version>/` and keyed by the hash of its source (the pom, the probe), so a warm call
 * runs neither Maven nor javac. Safe to call repeatedly; concurrent calls may both build, the last
 * rename wins and both results are equal.
 */
export async function ensureKafkaBuild(ctx: ComponentContext, version: string): Promise<KafkaBuild> {
  const javaDir = join(ctx.paths.testenvDir, 'java', 'kafka');
  const cacheDir = join(ctx.paths.cacheDir, 'kafka', version);
  const logFile = join(ctx.paths.logsDir, 'kafka-build.log');
  await mkdir(cacheDir, { recursive: true });
  const classpath = await ensureClasspath(ctx, { javaDir, cacheDir, logFile, version });
  const probeDir = await ensureProbe(ctx, { javaDir, cacheDir, logFile, classpath });
  return { classpath, probeDir, log4jConfig: join(javaDir, 'log4j2.properties') };
}

interface BuildInput {
  readonly javaDir: string;
  readonly cacheDir: string;
  readonly logFile: string;
}

async function ensureClasspath(ctx: ComponentContext, input: BuildInput & { readonly version: string }): Promise<string> {
  const pom = join(input.javaDir, 'pom.xml');
  const outFile = join(input.cacheDir, 'classpath.txt');
  const stampFile = join(input.cacheDir, 'classpath.pom.sha256');
  const pomHash = sha256(await readFile(pom));
  const cached = await readCachedClasspath(outFile, stampFile, pomHash);
  if (cached !== undefined) return cached;

  ctx.progress(`resolving Kafka ${input.version} from Maven Central (first run only)`);
  const tmp = `${outFile}.${process.pid}.tmp`;
  await runToCompletion(
    'mvn',
    ['-B', '-q', '-f', pom, `-Dkafka.version=${input.version}`, 'dependency:build-classpath', `-Dmdep.outputFile=${tmp}`],
    { cwd: input.javaDir, logFile: input.logFile },
  );
  await rename(tmp, outFile);
  await writeFile(stampFile, `${pomHash}\n`);
  const classpath = (await readFile(outFile, 'utf8')).trim();
  if (classpath === '') throw new Error(`kafka: Maven wrote an empty class path to ${outFile}`);
  return classpath;
}

/** The cached class path when it was resolved from this very pom and every jar is still in the local repository. */
async function readCachedClasspath(outFile: string, stampFile: string, pomHash: string): Promise<string | undefined> {
  try {
    const [text, stamp] = await Promise.all([readFile(outFile, 'utf8'), readFile(stampFile, 'utf8')]);
    const classpath = text.trim();
    if (stamp.trim() !== pomHash || classpath === '') return undefined;
    return classpath.split(delimiter).every((jar) => existsSync(jar)) ? classpath : undefined;
  } catch {
    return undefined;
  }
}

async function ensureProbe(ctx: ComponentContext, input: BuildInput & { readonly classpath: string }): Promise<string> {
  const source = join(input.javaDir, 'probe', 'KafkaProbe.java');
  const probeDir = join(input.cacheDir, `probe-${sha256(await readFile(source)).slice(0, 12)}`);
  if (existsSync(join(probeDir, 'KafkaProbe.class'))) return probeDir;

  ctx.progress('compiling the Kafka health probe');
  const tmpDir = `${probeDir}.${process.pid}.tmp`;
  await rm(tmpDir, { recursive: true, force: true });
  await runToCompletion('javac', ['--release', '17', '-cp', input.classpath, '-d', tmpDir, source], { logFile: input.logFile });
  await rm(probeDir, { recursive: true, force: true });
  await rename(tmpDir, probeDir);
  return probeDir;
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
