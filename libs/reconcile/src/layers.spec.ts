import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The runtime's folders, lowest first. A production file may import its own folder and folders before its own;
 * never a later one (so imports run one way and there are no cycles between folders) and never `testing`.
 */
const LAYERS = ['core', 'schedule', 'client', 'crd', 'admission', 'status', 'observability', 'cache', 'secret', 'queue', 'controller', 'external', 'connection', 'manager'] as const;

const SRC = dirname(fileURLToPath(import.meta.url));
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

interface ImportEdge {
  readonly file: string;
  readonly target: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testdata' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

function edges(): ImportEdge[] {
  return sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(join(SRC, file), 'utf8').matchAll(IMPORT)].map((match) => ({
      file,
      target: normalize(join(dirname(file), match[1] ?? '')),
    })),
  );
}

function folderOf(path: string): string {
  return path.includes('/') ? (path.split('/')[0] ?? '') : '';
}

const isTest = (file: string): boolean => file.endsWith('.spec.ts');

/** The one import that leaves the runtime on purpose: the repository's version (ADR 0027), in no folder of ours. */
const ROOT_PACKAGE_JSON = normalize('../../../package.json');

/** The production imports that point to a later folder (or to no folder of {@link LAYERS}), as `file -> target`. */
function upwardImports(all: readonly ImportEdge[]): string[] {
  return all
    .filter((edge) => !isTest(edge.file) && folderOf(edge.file) !== 'testing' && edge.file !== 'index.ts')
    .filter((edge) => edge.target !== ROOT_PACKAGE_JSON)
    .filter((edge) => {
      const from = LAYERS.indexOf(folderOf(edge.file) as (typeof LAYERS)[number]);
      const to = LAYERS.indexOf(folderOf(edge.target) as (typeof LAYERS)[number]);
      return to < 0 || to > from;
    })
    .map((edge) => `${edge.file} -> ${edge.target}`);
}

describe('the runtime folders', () => {
  it('hold every source file (nothing left at the top but index.ts and this test)', () => {
    const top = sourceFiles(SRC).filter((file) => folderOf(file) === '');
    expect(top.sort()).toEqual(['index.ts', 'layers.spec.ts']);
    const folders = new Set(sourceFiles(SRC).map(folderOf).filter((f) => f !== ''));
    expect([...folders].sort()).toEqual([...LAYERS, 'testing'].sort());
  });

  it('import one way: a production file only from its own folder or an earlier one', () => {
    expect(upwardImports(edges())).toEqual([]);
  });

  it('would catch an upward or sideways import', () => {
    const made: ImportEdge[] = [
      { file: 'core/clock.ts', target: 'manager/manager.ts' },
      { file: 'cache/store.ts', target: 'queue/queue.ts' },
      { file: 'queue/queue.ts', target: 'cache/store.ts' },
      { file: 'cache/store.spec.ts', target: 'manager/manager.ts' },
    ];
    expect(upwardImports(made)).toEqual(['core/clock.ts -> manager/manager.ts', 'cache/store.ts -> queue/queue.ts']);
  });

  it('keep test helpers out of production code: only tests and testing/ import testing/', () => {
    const wrong = edges()
      .filter((edge) => folderOf(edge.target) === 'testing' && !isTest(edge.file) && folderOf(edge.file) !== 'testing')
      .map((edge) => `${edge.file} -> ${edge.target}`);
    expect(wrong).toEqual([]);
  });

});
