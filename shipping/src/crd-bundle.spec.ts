import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { crdBundle } from './crd-bundle.ts';

describe('crdBundle', () => {
  it('joins the CRD files into one multi-document YAML, each document once, under a header that says how to apply it', () => {
    const bundle = crdBundle('kafka-operator', '1.2.3', ['# generated\nkind: CustomResourceDefinition\nmetadata: {name: a}\n', '---\nkind: CustomResourceDefinition\nmetadata: {name: b}\n\n']);
    expect(bundle).toBe(
      [
        '# The CustomResourceDefinitions of kafka-operator 1.2.3: apply before upgrading the chart (Helm never upgrades CRDs):',
        '#   kubectl apply --server-side --force-conflicts -f kafka-operator-crds.yaml',
        '---',
        '# generated',
        'kind: CustomResourceDefinition',
        'metadata: {name: a}',
        '---',
        'kind: CustomResourceDefinition',
        'metadata: {name: b}',
        '',
      ].join('\n'),
    );
    expect(parseAllDocuments(bundle).map((document) => (document.toJS() as { metadata: { name: string } }).metadata.name)).toEqual(['a', 'b']);
  });
});
