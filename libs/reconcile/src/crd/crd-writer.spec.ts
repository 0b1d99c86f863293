import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Type } from '@sinclair/typebox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { defineCustomResource } from './crd.ts';
import { renderCrdFiles, renderCrdYaml, runCrdWriter, staleCrdFiles, writeCrdFiles } from './crd-writer.ts';
import { customResources, gizmos } from './testdata/gizmo.ts';

const SOURCE = 'src/crd/testdata/gizmo.ts';
const COMMITTED = fileURLToPath(new URL('./testdata/crds', import.meta.url));
const GIZMO_MODULE = fileURLToPath(new URL('./testdata/gizmo.ts', import.meta.url));
const GIZMO_FILE = 'gizmos.test.domain-operators.io.yaml';

const thing = defineCustomResource({
  group: 'example.domain-operators.io',
  version: 'v1',
  kind: 'Thing',
  plural: 'things',
  singular: 'thing',
  scope: 'Cluster',
  description: 'A thing.',
  spec: Type.Object({ size: Type.Integer({ description: 'size' }) }, { description: 'spec' }),
});

describe('renderCrdYaml', () => {
  it('starts with a header naming the source and parses back to the CRDs', () => {
    const text = renderCrdYaml([gizmos, thing], { source: SOURCE });
    expect(text.split('\n')[0]).toBe('# Generated from src/crd/testdata/gizmo.ts by @domain-operators/reconcile crd-writer: do not edit.');
    expect(parseAllDocuments(text).map((doc) => doc.toJS() as unknown)).toEqual([gizmos.crd, thing.crd]);
  });

  it('is stable: apiVersion, kind, metadata, spec first, no anchors, no folded lines', () => {
    const text = renderCrdYaml([gizmos], { source: SOURCE });
    expect(renderCrdYaml([gizmos], { source: SOURCE })).toBe(text);
    expect(text.split('\n').slice(1, 5)).toEqual([
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata:',
      '  name: gizmos.test.domain-operators.io',
    ]);
    expect(text).not.toMatch(/[&*]a\d/);
    expect(text).toContain('description: "What happens to the external object when this resource is deleted: Delete removes it, Retain leaves it in place (the operator only forgets it). Defaults to Delete."\n');
  });
});

describe('renderCrdFiles', () => {
  it('names one file per CRD and refuses a CRD defined twice', () => {
    expect(renderCrdFiles([gizmos, thing], { source: SOURCE }).map((file) => file.fileName)).toEqual([GIZMO_FILE, 'things.example.domain-operators.io.yaml']);
    expect(() => renderCrdFiles([gizmos, gizmos], { source: SOURCE })).toThrow('gizmos.test.domain-operators.io is defined twice');
  });
});

// The example of how an operator keeps its committed CRDs honest: a unit test over the definitions module.
describe('committed CRDs', () => {
  it('match what src/crd/testdata/gizmo.ts renders (run `nx run reconcile:crds` to regenerate)', async () => {
    expect(await staleCrdFiles(customResources, { dir: COMMITTED, source: SOURCE })).toEqual([]);
  });
});

describe('writing and checking a directory', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crd-writer-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports missing files, writes them, and writes nothing the second time', async () => {
    expect((await staleCrdFiles([gizmos], { dir, source: SOURCE })).map((f) => [f.fileName, f.problem])).toEqual([[GIZMO_FILE, 'missing']]);
    expect(await writeCrdFiles([gizmos], { dir, source: SOURCE })).toEqual([GIZMO_FILE]);
    expect(await writeCrdFiles([gizmos], { dir, source: SOURCE })).toEqual([]);
    expect(await staleCrdFiles([gizmos], { dir, source: SOURCE })).toEqual([]);
  });

  it('reports a changed file with a diff of the changed lines', async () => {
    await writeCrdFiles([gizmos], { dir, source: SOURCE });
    const path = join(dir, GIZMO_FILE);
    await writeFile(path, (await readFile(path, 'utf8')).replace('maxLength: 63', 'maxLength: 64'));
    const [stale, ...rest] = await staleCrdFiles([gizmos], { dir, source: SOURCE });
    expect(rest).toEqual([]);
    expect(stale?.fileName).toBe(GIZMO_FILE);
    expect(stale?.problem).toBe('changed');
    expect(stale?.diff).toMatch(/^@@ -\d+ \+\d+ @@\n/);
    expect(stale?.diff.split('\n').filter((line) => /^[-+] /.test(line))).toEqual(['-                   maxLength: 64', '+                   maxLength: 63']);
  });

  it('reports and removes generated files no definition renders, but leaves hand-written YAML alone', async () => {
    await writeCrdFiles([gizmos, thing], { dir, source: SOURCE });
    await writeFile(join(dir, 'kustomization.yaml'), 'resources: []\n');
    expect((await staleCrdFiles([gizmos], { dir, source: SOURCE })).map((f) => [f.fileName, f.problem])).toEqual([
      ['things.example.domain-operators.io.yaml', 'orphaned'],
    ]);
    expect(await writeCrdFiles([gizmos], { dir, source: SOURCE })).toEqual(['things.example.domain-operators.io.yaml']);
    expect((await readdir(dir)).sort()).toEqual([GIZMO_FILE, 'kustomization.yaml']);
  });
});

describe('runCrdWriter (the CLI)', () => {
  let dir: string;
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (line: string) => out.push(line), stderr: (line: string) => err.push(line) };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crd-cli-'));
    out.length = 0;
    err.length = 0;
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the files of the module, with the module path relative to its project in the header', async () => {
    expect(await runCrdWriter(['--module', GIZMO_MODULE, '--out', dir], io)).toBe(0);
    expect(await readFile(join(dir, GIZMO_FILE), 'utf8')).toBe(await readFile(join(COMMITTED, GIZMO_FILE), 'utf8'));
    expect(out.at(-1)).toBe('1 CRD file(s) written, 1 changed');
  });

  it('--check exits 1 naming the stale file, and 0 when up to date', async () => {
    expect(await runCrdWriter(['--module', GIZMO_MODULE, '--out', dir, '--check'], io)).toBe(1);
    expect(err[0]).toMatch(new RegExp(`${GIZMO_FILE.replaceAll('.', '\\.')} is stale \\(missing\\); regenerate it by running the same command without --check\n@@`));
    expect(await runCrdWriter(['--module', GIZMO_MODULE, '--out', dir], io)).toBe(0);
    expect(await runCrdWriter(['--module', GIZMO_MODULE, '--out', dir, '--check'], io)).toBe(0);
    expect(out.at(-1)).toMatch(/^1 CRD file\(s\) in .* are up to date$/);
  });

  it('exits 2 on bad arguments and on a module without customResources', async () => {
    expect(await runCrdWriter(['--out', dir], io)).toBe(2);
    expect(err.at(-1)).toMatch(/^--module and --out are required\nusage: /);
    const notDefinitions = fileURLToPath(new URL('./crd-schema.ts', import.meta.url));
    expect(await runCrdWriter(['--module', notDefinitions, '--out', dir], io)).toBe(2);
    expect(err.at(-1)).toMatch(/does not export an array "customResources"$/);
  });

  it('runs as a script: node crd-writer.ts --check fails on a stale directory', async () => {
    const script = fileURLToPath(new URL('./crd-writer.ts', import.meta.url));
    const run = promisify(execFile)(process.execPath, [script, '--module', GIZMO_MODULE, '--out', dir, '--check']);
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining(`${GIZMO_FILE} is stale (missing)`) as unknown });
  });
});
