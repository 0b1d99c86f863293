import { describe, expect, it } from 'vitest';
import { helmTemplateArgs } from './helm.ts';

describe('helmTemplateArgs', () => {
  it('renders one release into a namespace with CRDs, values files and JSON overrides in order', () => {
    expect(
      helmTemplateArgs({
        chartDir: 'charts/kafka-operator',
        releaseName: 'r',
        namespace: 'ops',
        includeCrds: true,
        valuesFiles: ['a.yaml', 'b.yaml'],
        setJson: { replicaCount: 2, image: { tag: 'dev' } },
      }),
    ).toEqual([
      'template',
      'r',
      'charts/kafka-operator',
      '--namespace',
      'ops',
      '--include-crds',
      '--values',
      'a.yaml',
      '--values',
      'b.yaml',
      '--set-json',
      'replicaCount=2',
      '--set-json',
      'image={"tag":"dev"}',
    ]);
  });
});
