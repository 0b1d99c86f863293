import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ConnectionReasons } from '../connection/connection-reasons.ts';
import { READY_CONDITION, SYNCED_CONDITION } from '../core/conditions.ts';
import { Reasons } from '../core/reasons.ts';

/**
 * Reasons retired for the runtime's: in 0.2 for {@link Reasons.notAuthorized}, and for {@link Reasons.secretNotFound}
 * (issue #29); no production code may write them again.
 */
const RETIRED = ['Forbidden', 'NoPermission', 'InvalidSecret', 'CredentialsNotFound', 'AuthSecretNotFound'] as const;

/**
 * Words that are also something else in the code (an ownership value, a store change type, a Kubernetes Status
 * reason, an error's class name, a printer column): flagged only where they stand as a reason (after `reason: `,
 * `reason === `, `reason !== `, or first in an `…Error(` call), and `Ready` also as a condition type (after `type: `).
 */
const AMBIGUOUS: ReadonlySet<string> = new Set([READY_CONDITION, Reasons.created, Reasons.adopted, Reasons.updated, Reasons.deleted, Reasons.terminalError, Reasons.alreadyExists]);

/** Every reason and condition type the runtime exports as a constant, and the retired names. */
const WORDS: ReadonlySet<string> = new Set<string>([...Object.values(Reasons), ...Object.values(ConnectionReasons), READY_CONDITION, SYNCED_CONDITION, ...RETIRED]);

// A literal, and what stands before it: `reason: `, `reason === ` or `reason !== `, `type: `, or `…Error(`.
const LITERAL = /(?:(reason)\s*(?::|[!=]==)\s*|(type):\s*|(Error)\(\s*)?'([A-Z][A-Za-z0-9]*)'/g;

/** A test or test helper, not production code. */
function isTestFile(name: string): boolean {
  return name.endsWith('.spec.ts') || name.includes('test-support') || name.endsWith('.int.ts');
}

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testdata' || entry.name === 'node_modules' ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !isTestFile(entry.name) ? [path] : [];
  });
}

/**
 * The string literals in `source` that spell a reason or condition type the runtime exports as a constant
 * ({@link Reasons}, {@link ConnectionReasons}, `READY_CONDITION`, `SYNCED_CONDITION`) or a retired reason, as
 * `line: 'Word'`. Comment lines are skipped. Pure.
 */
export function reasonLiteralsIn(source: string): string[] {
  return source.split('\n').flatMap((text, index) => {
    const trimmed = text.trimStart();
    if (trimmed.startsWith('*') || trimmed.startsWith('//') || trimmed.startsWith('/*')) return [];
    return [...text.matchAll(LITERAL)]
      .filter((match) => {
        const word = match[4] ?? '';
        if (!WORDS.has(word)) return false;
        const asReason = match[1] !== undefined || match[3] !== undefined;
        return !AMBIGUOUS.has(word) || asReason || (match[2] !== undefined && word === READY_CONDITION);
      })
      .map((match) => `${index + 1}: '${match[4] ?? ''}'`);
  });
}

/**
 * The reason literals (see {@link reasonLiteralsIn}) in every production `.ts` file under `root` (not `*.spec.ts`,
 * test support, `*.int.ts`), as `path:line: 'Word'` with `path` relative to `root`; `except` lists paths (relative to
 * `root`) that may spell them, i.e. the files that declare the constants. An operator's test expects this to be empty,
 * so its code writes the runtime's constants instead of its own spelling of them. Reads the files synchronously.
 */
export function sharedReasonLiterals(root: string, except: readonly string[] = []): string[] {
  return productionFiles(root)
    .filter((path) => !except.includes(relative(root, path)))
    .flatMap((path) => reasonLiteralsIn(readFileSync(path, 'utf8')).map((hit) => `${relative(root, path)}:${hit}`));
}
