import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { openSearchRequestCounter, REQUESTS_METRIC } from './metrics.ts';

describe('openSearchRequestCounter', () => {
  it('counts requests by API on the given registry', async () => {
    const registry = new Registry();
    const requests = openSearchRequestCounter(registry);
    requests.count('indices.create');
    requests.count('indices.get');
    requests.count('indices.get');
    const text = await registry.metrics();
    expect(text).toContain(`${REQUESTS_METRIC}{api="indices.create"} 1`);
    expect(text).toContain(`${REQUESTS_METRIC}{api="indices.get"} 2`);
  });

  it('refuses a second counter on the same registry', () => {
    const registry = new Registry();
    openSearchRequestCounter(registry);
    expect(() => openSearchRequestCounter(registry)).toThrow(REQUESTS_METRIC);
  });
});
