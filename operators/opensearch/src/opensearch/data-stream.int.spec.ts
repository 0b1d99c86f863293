import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenSearchFixture } from './test-support.int.ts';
import { openSearchFixture } from './test-support.int.ts';
import { isOpenSearchError } from './errors.ts';
import { diffIndexTemplate, indexTemplateWire } from './template-plan.ts';

describe('data streams against the real node', () => {
  let fx: OpenSearchFixture;
  let template: string;
  let stream: string;

  beforeAll(async () => {
    fx = await openSearchFixture();
    template = `team-ds${fx.suffix}-app`;
    stream = `team-ds${fx.suffix}-app-logs`;
  });

  afterAll(async () => {
    await fx.api.deleteDataStream(stream);
    await fx.api.deleteIndexTemplate(template);
    await fx.api.close();
  });

  it('refuses a create without a data-stream template as DependencyNotReady, then creates, reads and deletes it through one', async () => {
    const refused = await fx.api.createDataStream(stream).then(() => undefined, (err: unknown) => err);
    expect(isOpenSearchError(refused, 'DependencyNotReady')).toBe(true);
    expect(await fx.api.getDataStream(stream)).toBeUndefined();

    const wire = indexTemplateWire({ indexPatterns: [`team-ds${fx.suffix}-app-*`], dataStream: {}, priority: 300, template: { settings: { numberOfReplicas: 0 } } });
    await fx.api.putIndexTemplate(template, wire);
    expect(diffIndexTemplate(wire, await fx.api.getIndexTemplate(template))).toEqual([]);

    await fx.api.createDataStream(stream);
    expect(await fx.api.getDataStream(stream)).toEqual({ name: stream, generation: 1, backingIndices: [`.ds-${stream}-000001`], health: 'green', template });
    await fx.api.deleteDataStream(stream);
    expect(await fx.api.getDataStream(stream)).toBeUndefined();
    await fx.api.deleteDataStream(stream);
  });
});
