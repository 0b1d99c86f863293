import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { EXIT, migrateOpster, parseCommandLine } from './cli.ts';

/** Runs the command on `input` delivered in small chunks, collecting stdout and stderr. */
async function run(args: readonly string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const chunks = input.match(/[\s\S]{1,7}/g) ?? [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString('utf8')));
  const code = await migrateOpster(args, { stdin: Readable.from(chunks.map((chunk) => Buffer.from(chunk))), stdout, stderr });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const THEIRS = `apiVersion: opensearch.opster.io/v1
kind: OpensearchTenant
metadata:
  name: analytics
  namespace: team-a
spec:
  opensearchCluster:
    name: my-cluster
---
apiVersion: opensearch.opster.io/v1
kind: OpensearchActionGroup
metadata:
  name: readers
  namespace: team-a
spec:
  opensearchCluster:
    name: my-cluster
  allowedActions: [read]
---
`;

describe('migrate-opster', () => {
  it('reads multi-document YAML in chunks and writes ours as multi-document YAML, findings on stderr, exit 0', async () => {
    const result = await run(['--connection', 'search'], THEIRS);
    expect(result.code).toBe(EXIT.ok);
    const documents = parseAllDocuments(result.stdout);
    expect(Array.isArray(documents) && documents.map((document) => (document.toJS() as { kind: string }).kind)).toEqual(['OpenSearchTenant', 'OpenSearchActionGroup']);
    expect(result.stdout).toContain('opensearch.domain-operators.io/adopt: "true"');
    expect(result.stderr).toBe(
      'warning: OpensearchActionGroup team-a/readers: spec.type is not set; ours requires one and uses index: change it to cluster or kibana if the group is one\n' +
        'migrate-opster: 2 objects written, 1 warnings, 0 not converted\n',
    );
  });

  it('exits 2 when an object could not be converted or a document is broken, still writing the others', async () => {
    const ism = 'apiVersion: opensearch.opster.io/v1\nkind: OpenSearchISMPolicy\nmetadata: {name: p, namespace: team-a}\nspec: {}\n';
    const result = await run(['--connection=search'], `${THEIRS}${ism}---\nkey: [unclosed\n`);
    expect(result.code).toBe(EXIT.notConverted);
    expect(parseAllDocuments(result.stdout)).toHaveLength(2);
    expect(result.stderr).toMatch(/^error: document 4: not valid YAML/m);
    expect(result.stderr).toMatch(/^error: OpenSearchISMPolicy team-a\/p: ISM policies are not supported/m);
    expect(result.stderr).toContain('2 objects written, 1 warnings, 2 not converted');
  });

  it('writes nothing for empty input', async () => {
    expect(await run(['--connection', 'search'], '')).toEqual({ code: EXIT.ok, stdout: '', stderr: 'migrate-opster: 0 objects written, 0 warnings, 0 not converted\n' });
  });

  it('exits 1 on a usage error and 0 on --help', async () => {
    const missing = await run([], THEIRS);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain('--connection is required');
    expect((await run(['--help'], '')).code).toBe(EXIT.ok);
    expect(parseCommandLine(['--connection', 'c', '--index-prefix', '{namespace}-'])).toEqual({ options: { connection: 'c', indexPrefix: '{namespace}-' } });
    expect(parseCommandLine(['--connection', 'c', 'extra'])).toMatchObject({ help: false });
  });
});
