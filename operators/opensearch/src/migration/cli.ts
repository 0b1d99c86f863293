/**
 * The `migrate-opster` command: multi-document YAML of opensearch-k8s-operator's objects on stdin, ours on stdout,
 * the findings on stderr. Exit 0 when every object converted, 2 when any could not be (the rest are still written),
 * 1 on a usage error. Runs as `node main.js migrate-opster --connection <name>`: the operator's `main.ts` (the image's
 * entrypoint, or `node operators/opensearch/src/main.ts` from a checkout) dispatches its first argument to it.
 */
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import { convertOpster } from './index.ts';
import type { ConvertOptions, Finding } from './types.ts';

/** The subcommand name `main.ts` dispatches on. */
export const MIGRATE_OPSTER_COMMAND = 'migrate-opster';

/** Exit codes of the command. */
export const EXIT = { ok: 0, usage: 1, notConverted: 2 } as const;

const USAGE = `usage: ${MIGRATE_OPSTER_COMMAND} --connection <OpenSearchConnection> [--index-prefix <prefix>] < theirs.yaml > ours.yaml

Converts opensearch-k8s-operator objects (opensearch.opster.io/v1, opensearch.org/v1; Lists too) into
opensearch.domain-operators.io/v1alpha1 objects that adopt the same objects in OpenSearch.
  --connection     our OpenSearchConnection every spec.opensearchCluster maps to (required)
  --index-prefix   the connection's tenancy.indexPrefix, to report names outside it ("{namespace}" allowed)
Findings go to stderr. Exit 0: all converted; 2: some could not be (the others are written); 1: usage.
`;

/** The standard streams the command uses. */
export interface Streams {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

/** The options of `args`, or a usage message. */
export function parseCommandLine(args: readonly string[]): { readonly options: ConvertOptions } | { readonly usage: string; readonly help: boolean } {
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { connection: { type: 'string' }, 'index-prefix': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help === true) return { usage: USAGE, help: true };
    if (values.connection === undefined || values.connection === '') return { usage: `--connection is required\n${USAGE}`, help: false };
    const prefix = values['index-prefix'];
    return { options: { connection: values.connection, ...(prefix !== undefined && { indexPrefix: prefix }) } };
  } catch (error) {
    return { usage: `${error instanceof Error ? error.message : String(error)}\n${USAGE}`, help: false };
  }
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => {
      if (error) reject(error);
      else resolve();
    });
  });
}

const line = (level: string, finding: Finding): string => `${level}: ${finding.source}: ${finding.message}\n`;

/**
 * Reads all of stdin, converts it and writes ours as multi-document YAML; resolves to the exit code. A document that
 * is not valid YAML counts as one that could not be converted; empty documents are skipped.
 */
export async function migrateOpster(args: readonly string[], streams: Streams): Promise<number> {
  const parsed = parseCommandLine(args);
  if ('usage' in parsed) {
    await write(parsed.help ? streams.stdout : streams.stderr, parsed.usage);
    return parsed.help ? EXIT.ok : EXIT.usage;
  }
  const documents = parseAllDocuments(await readAll(streams.stdin));
  const broken: Finding[] = [];
  const values: unknown[] = [];
  for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
    if (document.errors.length > 0) broken.push({ source: `document ${index + 1}`, message: `not valid YAML: ${document.errors[0]?.message ?? ''}` });
    else {
      const value: unknown = document.toJS();
      if (value !== null && value !== undefined) values.push(value);
    }
  }
  const result = convertOpster(values, parsed.options);
  await write(streams.stdout, result.objects.map((object) => stringify(object, { lineWidth: 0 })).join('---\n'));
  const errors = [...broken, ...result.errors];
  const findings = [...result.warnings.map((warning) => line('warning', warning)), ...errors.map((error) => line('error', error))];
  const summary = `${MIGRATE_OPSTER_COMMAND}: ${result.objects.length} objects written, ${result.warnings.length} warnings, ${errors.length} not converted\n`;
  await write(streams.stderr, findings.join('') + summary);
  return errors.length > 0 ? EXIT.notConverted : EXIT.ok;
}

/** Runs the command on the process's streams and sets `process.exitCode`. */
export async function runMigrateOpster(args: readonly string[]): Promise<void> {
  process.exitCode = await migrateOpster(args, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
}
