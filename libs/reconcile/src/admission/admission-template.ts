// Renders an operator's admission policies into its chart's templates/admission-policies.yaml, and checks the
// committed copy. Also a CLI:
//   node libs/reconcile/src/admission/admission-template.ts --module <module.ts exporting admissionPolicies> --out <file> [--check]
import { readFile, writeFile } from 'node:fs/promises';
import { basename, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import type { AdmissionPolicy } from './admission-policy.ts';
import { policyObjects } from './admission-policy.ts';

const FULLNAME = 'ADMISSION_FULLNAME';
const ACTIONS = 'ADMISSION_VALIDATION_ACTIONS';
const LABELS = 'ADMISSION_LABELS';

/**
 * The Helm template of `policies`: every policy and binding named `<release fullname>-<policy name>`, labelled
 * with the chart's `operator.labels`, the whole file gated by `.Values.admissionPolicies.enabled`, each binding's
 * `validationActions` taken from `.Values.admissionPolicies.validationActions`. `source` is shown in the header.
 * Deterministic. Pure.
 */
export function renderAdmissionTemplate(policies: readonly AdmissionPolicy[], source: string): string {
  const documents = policies.flatMap((policy) =>
    policyObjects(policy, { namePrefix: FULLNAME, validationActions: ['Deny'] }).map((object) => {
      const withTokens = {
        ...object,
        metadata: { name: object.metadata.name, labels: LABELS },
        spec: object.kind === 'ValidatingAdmissionPolicyBinding' ? { ...object.spec, validationActions: ACTIONS } : object.spec,
      };
      return stringify(withTokens, { lineWidth: 0, aliasDuplicateObjects: false })
        .replaceAll(FULLNAME, '{{ include "operator.fullname" . }}')
        .replace(`labels: ${LABELS}`, 'labels:\n    {{- include "operator.labels" . | nindent 4 }}')
        .replace(`validationActions: ${ACTIONS}`, 'validationActions: {{ toJson .Values.admissionPolicies.validationActions }}');
    }),
  );
  return [
    `# Generated from ${source} by @domain-operators/reconcile admission-template: do not edit.`,
    '{{- if .Values.admissionPolicies.enabled }}',
    documents.map((d) => `---\n${d}`).join(''),
    '{{- end }}\n',
  ].join('\n');
}

/** Output streams of {@link runAdmissionTemplate}. */
export interface AdmissionTemplateIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
}

const USAGE = 'usage: node libs/reconcile/src/admission/admission-template.ts --module <module.ts exporting admissionPolicies> --out <file> [--check]';

/**
 * The CLI: loads `--module` (which must export an array `admissionPolicies` of {@link AdmissionPolicy}) and writes
 * the template to `--out`, or with `--check` only compares. Resolves to the exit code: 0 written / up to date,
 * 1 stale, 2 usage or load error.
 */
export async function runAdmissionTemplate(argv: readonly string[], io: AdmissionTemplateIo): Promise<number> {
  let args: { module: string; out: string; check: boolean };
  try {
    const { values } = parseArgs({ args: [...argv], options: { module: { type: 'string' }, out: { type: 'string' }, check: { type: 'boolean', default: false } }, strict: true });
    if (values.module === undefined || values.out === undefined) throw new Error('--module and --out are required');
    args = { module: resolve(values.module), out: resolve(values.out), check: values.check };
  } catch (err) {
    io.stderr(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  let policies: readonly AdmissionPolicy[];
  try {
    const loaded = ((await import(pathToFileURL(args.module).href)) as Record<string, unknown>)['admissionPolicies'];
    if (!Array.isArray(loaded)) throw new Error(`${args.module} does not export an array "admissionPolicies"`);
    policies = loaded as readonly AdmissionPolicy[];
  } catch (err) {
    io.stderr(`cannot load admission policies: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const text = renderAdmissionTemplate(policies, relative(process.cwd(), args.module));
  const shown = relative(process.cwd(), args.out);
  const onDisk = await readFile(args.out, 'utf8').catch(() => undefined);
  if (args.check) {
    if (onDisk === text) {
      io.stdout(`${shown} is up to date`);
      return 0;
    }
    io.stderr(`${shown} is stale; regenerate it by running the same command without --check`);
    return 1;
  }
  if (onDisk !== text) await writeFile(args.out, text);
  io.stdout(`${shown} ${onDisk === text ? 'unchanged' : 'written'} (${policies.length} policies)`);
  return 0;
}

// No top-level await (the --module usually imports this package's index, which imports this file again), and only
// when run as this file (not as a bundle).
if (import.meta.main && basename(import.meta.filename) === 'admission-template.ts') {
  void runAdmissionTemplate(process.argv.slice(2), {
    stdout: (line) => {
      process.stdout.write(`${line}\n`);
    },
    stderr: (line) => {
      process.stderr.write(`${line}\n`);
    },
  }).then((code) => {
    process.exitCode = code;
  });
}
