import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPERATOR_SYSTEMS } from './definitions.ts';
import { chartImageReference } from './inputs.ts';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

describe('chartImageReference', () => {
  it("is each chart's default image: values image.repository and Chart appVersion", () => {
    for (const system of OPERATOR_SYSTEMS) {
      const chart = readFileSync(`${repo}charts/${system}-operator/Chart.yaml`, 'utf8');
      const values = readFileSync(`${repo}charts/${system}-operator/values.yaml`, 'utf8');
      expect(chartImageReference(chart, values)).toMatch(new RegExp(`^ghcr\\.io/domain-operators/${system}-operator:\\d+\\.\\d+\\.\\d+`));
    }
  });

  it('takes image.tag when it is set and ignores comments and quotes', () => {
    const chart = 'name: x\nappVersion: "1.2.3"\n';
    expect(chartImageReference(chart, 'image:\n  # -- repo\n  repository: ghcr.io/a/b\n  tag: ""\n  pullPolicy: IfNotPresent\nother: 1\n')).toBe('ghcr.io/a/b:1.2.3');
    expect(chartImageReference(chart, "image:\n  repository: 'ghcr.io/a/b' # the repo\n  tag: \"2.0\"\n")).toBe('ghcr.io/a/b:2.0');
    expect(() => chartImageReference('name: x\n', 'image:\n  repository: r\n')).toThrow(/appVersion/);
  });
});
