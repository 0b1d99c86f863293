import { describe, expect, it } from 'vitest';
import { undocumentedValues } from './values-docs.ts';

describe('undocumentedValues', () => {
  it('accepts leaves with a "# --" block, possibly over several lines', () => {
    expect(undocumentedValues('# -- How many.\n# More words.\nreplicaCount: 1\nimage:\n  # -- Repo.\n  repository: x\n')).toEqual([]);
  });

  it('accepts the children of a parent documented as a whole', () => {
    expect(undocumentedValues('# -- Requests and limits.\nresources:\n  requests:\n    cpu: 50m\n')).toEqual([]);
  });

  it('names each undocumented leaf by its dotted path', () => {
    expect(undocumentedValues('# a plain comment\nreplicaCount: 1\nimage:\n  repository: x\n  # -- Tag.\n  tag: ""\n')).toEqual(['replicaCount', 'image.repository']);
  });
});
