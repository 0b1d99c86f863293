// Renders CRDs to YAML, writes them, and checks committed copies. Also a CLI:
//   node libs/reconcile/src/crd/crd-writer.ts --module <module.ts exporting customResources> --out <dir> [--check]
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import type { CustomResourceKind } from './crd.ts';

/** Where the definitions come from, shown in each file's header, e.g. `src/api/v1alpha1/index.ts`. */
export interface CrdRenderOptions {
  readonly source: string;
}

/** One rendered CRD file: `<plural>.<group>.yaml` and its text. */
export interface CrdFile {
  readonly fileName: string;
  readonly text: string;
}

/** A committed CRD file that does not match what the definitions render. */
export interface StaleCrdFile {
  readonly fileName: string;
  /** `missing`: not on disk; `changed`: differs; `orphaned`: a generated file no definition renders any more. */
  readonly problem: 'missing' | 'changed' | 'orphaned';
  /** A unified-diff-like hunk from the file on disk (`-`) to the rendered text (`+`). */
  readonly diff: string;
}

/** Options for {@link staleCrdFiles} and {@link writeCrdFiles}. */
export interface CrdDirectoryOptions extends CrdRenderOptions {
  /** The directory that holds the CRD files. */
  readonly dir: string;
}

/** Every file this writer generates starts with this, so orphans can be told from hand-written YAML. */
const HEADER_PREFIX = '# Generated from ';
const HEADER_SUFFIX = ' by @domain-operators/reconcile crd-writer: do not edit.';

/**
 * Renders CRDs as one YAML stream (documents separated by `---`) under a header comment naming `source`.
 * Deterministic: the same definitions always give the same text (keys in the order `defineCustomResource` builds
 * them, no line folding, no anchors).
 */
export function renderCrdYaml(kinds: readonly CustomResourceKind[], options: CrdRenderOptions): string {
  const documents = kinds.map((kind) => stringify(kind.crd, { lineWidth: 0, aliasDuplicateObjects: false }));
  return `${HEADER_PREFIX}${options.source}${HEADER_SUFFIX}\n${documents.join('---\n')}`;
}

/** Renders one file per CRD, named `<plural>.<group>.yaml`. Throws when two definitions share a CRD name. */
export function renderCrdFiles(kinds: readonly CustomResourceKind[], options: CrdRenderOptions): CrdFile[] {
  const seen = new Set<string>();
  return kinds.map((kind) => {
    if (seen.has(kind.name)) throw new Error(`${kind.name} is defined twice (CRDs with several versions are not supported yet)`);
    seen.add(kind.name);
    return { fileName: `${kind.name}.yaml`, text: renderCrdYaml([kind], options) };
  });
}

/**
 * Compares the files in `dir` with what the definitions render; an empty list means the committed CRDs are up to
 * date. Reads only; hand-written YAML in `dir` (without the generated header) is ignored.
 */
export async function staleCrdFiles(kinds: readonly CustomResourceKind[], options: CrdDirectoryOptions): Promise<StaleCrdFile[]> {
  const files = renderCrdFiles(kinds, options);
  const stale: StaleCrdFile[] = [];
  for (const file of files) {
    const onDisk = await readIfExists(join(options.dir, file.fileName));
    if (onDisk === undefined) stale.push({ fileName: file.fileName, problem: 'missing', diff: lineDiff('', file.text) });
    else if (onDisk !== file.text) stale.push({ fileName: file.fileName, problem: 'changed', diff: lineDiff(onDisk, file.text) });
  }
  for (const orphan of await orphans(files, options.dir)) {
    stale.push({ fileName: orphan.fileName, problem: 'orphaned', diff: lineDiff(orphan.text, '') });
  }
  return stale;
}

/**
 * Writes the rendered files into `dir` (created if needed) and deletes generated files no definition renders any
 * more. Idempotent: files whose text is unchanged are not rewritten. Returns the names of the files it changed.
 */
export async function writeCrdFiles(kinds: readonly CustomResourceKind[], options: CrdDirectoryOptions): Promise<string[]> {
  const files = renderCrdFiles(kinds, options);
  await mkdir(options.dir, { recursive: true });
  const changed: string[] = [];
  for (const file of files) {
    const path = join(options.dir, file.fileName);
    if ((await readIfExists(path)) === file.text) continue;
    await writeFile(path, file.text);
    changed.push(file.fileName);
  }
  for (const orphan of await orphans(files, options.dir)) {
    await rm(join(options.dir, orphan.fileName));
    changed.push(orphan.fileName);
  }
  return changed;
}

/** Output streams of {@link runCrdWriter}. */
export interface CrdWriterIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
}

const USAGE = 'usage: node libs/reconcile/src/crd/crd-writer.ts --module <module.ts exporting customResources> --out <dir> [--check]';

/**
 * The CLI: loads `--module` (which must export an array `customResources`), then writes the CRD files into `--out`,
 * or with `--check` only compares them and reports stale files with a diff. The header names the module relative
 * to its project (the nearest directory with a package.json), so the output does not depend on the working
 * directory. Resolves to the exit code: 0 done / up to date, 1 stale (`--check`), 2 usage or definition error.
 */
export async function runCrdWriter(argv: readonly string[], io: CrdWriterIo): Promise<number> {
  let args: { module: string; out: string; check: boolean };
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { module: { type: 'string' }, out: { type: 'string' }, check: { type: 'boolean', default: false } },
      strict: true,
    });
    if (values.module === undefined || values.out === undefined) throw new Error('--module and --out are required');
    args = { module: resolve(values.module), out: resolve(values.out), check: values.check };
  } catch (err) {
    io.stderr(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  let kinds: readonly CustomResourceKind[];
  try {
    kinds = customResourcesOf((await import(pathToFileURL(args.module).href)) as Record<string, unknown>, args.module);
  } catch (err) {
    io.stderr(`cannot load CRD definitions from ${args.module}: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const options: CrdDirectoryOptions = { dir: args.out, source: projectRelative(args.module) };
  const shown = (fileName: string) => relative(process.cwd(), join(args.out, fileName));
  if (args.check) {
    const stale = await staleCrdFiles(kinds, options);
    for (const file of stale) {
      io.stderr(`${shown(file.fileName)} is stale (${file.problem}); regenerate it by running the same command without --check\n${file.diff}`);
    }
    if (stale.length === 0) io.stdout(`${kinds.length} CRD file(s) in ${relative(process.cwd(), args.out) || '.'} are up to date`);
    return stale.length === 0 ? 0 : 1;
  }
  const changed = await writeCrdFiles(kinds, options);
  for (const fileName of changed) io.stdout(`updated ${shown(fileName)}`);
  io.stdout(`${kinds.length} CRD file(s) written, ${changed.length} changed`);
  return 0;
}

function customResourcesOf(module: Record<string, unknown>, path: string): readonly CustomResourceKind[] {
  const kinds = module['customResources'];
  if (!Array.isArray(kinds)) throw new Error(`${path} does not export an array "customResources"`);
  kinds.forEach((kind: unknown, i) => {
    const candidate = kind as Partial<CustomResourceKind> | null;
    if (typeof candidate?.name !== 'string' || candidate.crd?.kind !== 'CustomResourceDefinition') {
      throw new Error(`customResources[${i}] is not the result of defineCustomResource`);
    }
  });
  return kinds as readonly CustomResourceKind[];
}

/** The module's path relative to its project root (nearest package.json), with forward slashes. */
function projectRelative(modulePath: string): string {
  let dir = dirname(modulePath);
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return relative(dir, modulePath).split(sep).join('/');
}

async function orphans(files: readonly CrdFile[], dir: string): Promise<CrdFile[]> {
  const expected = new Set(files.map((file) => file.fileName));
  const names = existsSync(dir) ? await readdir(dir) : [];
  const found: CrdFile[] = [];
  for (const fileName of names.filter((name) => name.endsWith('.yaml') && !expected.has(name)).sort()) {
    const text = await readFile(join(dir, fileName), 'utf8');
    if (isGenerated(text)) found.push({ fileName, text });
  }
  return found;
}

function isGenerated(text: string): boolean {
  const firstLine = text.slice(0, text.indexOf('\n'));
  return firstLine.startsWith(HEADER_PREFIX) && firstLine.endsWith(HEADER_SUFFIX);
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

const DIFF_CONTEXT = 3;
const DIFF_MAX_LINES = 60;

/** One hunk spanning everything between the common prefix and the common suffix of the two texts. */
function lineDiff(before: string, after: string): string {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const start = Math.max(0, prefix - DIFF_CONTEXT);
  const lines = [
    `@@ -${start + 1} +${start + 1} @@`,
    ...a.slice(start, prefix).map((line) => `  ${line}`),
    ...a.slice(prefix, a.length - suffix).map((line) => `- ${line}`),
    ...b.slice(prefix, b.length - suffix).map((line) => `+ ${line}`),
    ...a.slice(a.length - suffix, a.length - suffix + DIFF_CONTEXT).map((line) => `  ${line}`),
  ];
  return lines.length > DIFF_MAX_LINES ? [...lines.slice(0, DIFF_MAX_LINES), `… ${lines.length - DIFF_MAX_LINES} more lines`].join('\n') : lines.join('\n');
}

// Run as a script only when this very file is the entry point: bundled into an operator's main.js (where
// import.meta.main is true for the bundle), the file name differs and nothing runs.
// No top-level await: the module read by --module usually imports this package's index, which imports this file
// again; awaiting here would deadlock that import cycle ("unsettled top-level await").
if (import.meta.main && basename(import.meta.filename) === 'crd-writer.ts') {
  void runCrdWriter(process.argv.slice(2), {
    stdout: (line) => {
      process.stdout.write(`${line}\n`);
    },
    stderr: (line) => {
      process.stderr.write(`${line}\n`);
    },
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
