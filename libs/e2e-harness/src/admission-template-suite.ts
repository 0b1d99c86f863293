// The checks every operator's chart admission template gets (issue #20, ADR 0029), declared once.
import { readFileSync } from 'node:fs';
import { policyObjects, renderAdmissionTemplate } from '@domain-operators/reconcile';
import type { AdmissionPolicy, ValidationActions } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { helmTemplate } from './helm.ts';
import { parseManifests } from './manifests.ts';

/** What {@link admissionTemplateSuite} checks. */
export interface AdmissionTemplateSuiteOptions {
  /** The chart's directory (its `templates/admission-policies.yaml` is the file checked). */
  readonly chartDir: string;
  /** The operator's policies, as its module exports them. */
  readonly policies: readonly AdmissionPolicy[];
  /** The module's path as the template's header names it, relative to the operator's project (`src/admission/policies.ts`). */
  readonly source: string;
  /** The regeneration command named in a failure. */
  readonly regenerate: string;
}

/** The release's full name in the rendering (`fullnameOverride`), so the policies' names do not depend on the chart's. */
const FULLNAME = 'adm';

interface Named { readonly kind?: string; readonly metadata?: { readonly name?: string } }
// helm orders by kind, so both sides are compared in kind, name order.
const byKindAndName = (a: Named, b: Named): number => `${a.kind ?? ''}/${a.metadata?.name ?? ''}`.localeCompare(`${b.kind ?? ''}/${b.metadata?.name ?? ''}`);

/**
 * Declares (call it at the top level of a `*.spec.ts` file) that the chart's committed admission template is what the
 * renderer writes from `policies`, that helm renders it into exactly the policies and bindings `policyObjects`
 * builds (full name `adm`, with `[Deny]` and with `[Warn, Audit]`), and into nothing with `admissionPolicies.enabled`
 * false. Needs helm.
 */
export function admissionTemplateSuite(options: AdmissionTemplateSuiteOptions): void {
  const file = `${options.chartDir}/templates/admission-policies.yaml`;
  const rendered = async (values: Readonly<Record<string, unknown>>) =>
    parseManifests(await helmTemplate({ chartDir: options.chartDir, releaseName: 'r', namespace: 'ops', setJson: { fullnameOverride: FULLNAME, ...values } })).filter(
      (o) => o.apiVersion === 'admissionregistration.k8s.io/v1',
    );

  describe(`the admission template of ${options.chartDir.split('/').slice(-1)[0] ?? ''}`, () => {
    it('is what the policies module renders', () => {
      expect(readFileSync(file, 'utf8'), `stale: ${options.regenerate}`).toBe(renderAdmissionTemplate(options.policies, options.source));
    });

    it.each([[['Deny']], [['Warn', 'Audit']]] as [ValidationActions][])('renders the policies and bindings of the module, with validationActions %j', async (actions) => {
      const objects = (await rendered({ admissionPolicies: { enabled: true, validationActions: actions } })).sort(byKindAndName);
      const expected = options.policies.flatMap((p) => policyObjects(p, { namePrefix: FULLNAME, validationActions: actions })).sort(byKindAndName);
      expect(objects.map((o) => [o.kind, o.metadata?.name])).toEqual(expected.map((o) => [o.kind, o.metadata.name]));
      objects.forEach((o, i) => {
        expect((o as unknown as { spec: object }).spec).toEqual(expected[i]?.spec);
      });
    });

    it('renders nothing when admissionPolicies.enabled is false', async () => {
      expect(await rendered({ admissionPolicies: { enabled: false, validationActions: ['Deny'] } })).toEqual([]);
    });
  });
}
