import { describe, expect, it } from 'vitest';
import { documentedValues, renderChartReadme } from './chart-readme.ts';
import { staleGeneratedFiles } from './generate.ts';

const VALUES = [
  '# Header comment, not a description.',
  '',
  '# -- How many pods.',
  '# More words.',
  'replicaCount: 1',
  'image:',
  '  # -- The tag | pipe.',
  '  tag: ""',
  '# -- Requests and limits.',
  'resources:',
  '  requests:',
  '    cpu: 50m',
  '# a plain comment',
  'undocumented: true',
  'budget:',
  '  # -- A number or a percentage.',
  '  maxUnavailable: null',
  '',
].join('\n');

const SCHEMA = {
  definitions: { intOrString: { anyOf: [{ type: 'integer' }, { type: 'string' }] } },
  properties: { budget: { properties: { maxUnavailable: { anyOf: [{ $ref: '#/definitions/intOrString' }, { type: 'null' }] } } } },
};

describe('documentedValues', () => {
  it('lists documented keys with type, default and the whole comment block; a documented parent is one row', () => {
    expect(documentedValues(VALUES, SCHEMA)).toEqual([
      { key: 'replicaCount', type: 'integer', defaultValue: '1', description: 'How many pods. More words.' },
      { key: 'image.tag', type: 'string', defaultValue: '""', description: 'The tag | pipe.' },
      { key: 'resources', type: 'object', defaultValue: '{"requests":{"cpu":"50m"}}', description: 'Requests and limits.' },
      { key: 'budget.maxUnavailable', type: 'null', defaultValue: 'null', description: 'A number or a percentage.' },
    ]);
  });

  it('takes the type from the schema when it has one', () => {
    expect(documentedValues('# -- Count.\nreplicaCount: 1\n', { properties: { replicaCount: { type: ['integer', 'string'] } } })[0]?.type).toBe('integer | string');
  });
});

describe('renderChartReadme', () => {
  it('renders the install command and an escaped values table', () => {
    const readme = renderChartReadme({ chartYaml: 'name: demo\ndescription: A demo.\nversion: 1.0.0\nappVersion: "2.0"\nkubeVersion: ">=1.29.0-0"\n', valuesYaml: VALUES, schema: {} });
    expect(readme).toContain('helm install demo charts/demo --namespace domain-operators --create-namespace');
    expect(readme).toContain('Chart 1.0.0, operator 2.0, Kubernetes `>=1.29.0-0`.');
    expect(readme).toContain('| `image.tag` | string | `""` | The tag \\| pipe. |');
  });
});

describe('generated chart files', () => {
  it('are up to date: README.md and dashboards/operator.json of every chart (nx run charts:generate)', () => {
    expect(staleGeneratedFiles()).toEqual([]);
  });
});
