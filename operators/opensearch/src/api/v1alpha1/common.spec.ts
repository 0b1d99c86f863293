import { describe, expect, it } from 'vitest';
import { IndexSettings, TemplateContent, TemplateSettings } from './common.ts';

describe('settings schemas', () => {
  it("keep an index's shard count fixed at admission", () => {
    expect(IndexSettings.properties.numberOfShards['x-kubernetes-validations']).toEqual([expect.objectContaining({ rule: 'self == oldSelf' })]);
  });

  it("let a template's shard count change: it shapes only indices created afterwards", () => {
    expect(TemplateContent.properties.settings.properties.numberOfShards['x-kubernetes-validations']).toBeUndefined();
    expect(TemplateSettings.properties.numberOfShards['x-kubernetes-validations']).toBeUndefined();
    expect(Object.keys(TemplateSettings.properties)).toEqual(Object.keys(IndexSettings.properties));
  });
});
