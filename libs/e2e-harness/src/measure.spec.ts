import { describe, expect, it } from 'vitest';
import { median, metricSum } from './measure.ts';

describe('metricSum', () => {
  const text = [
    '# HELP kafka_operator_admin_requests_total Admin requests.',
    '# TYPE kafka_operator_admin_requests_total counter',
    'kafka_operator_admin_requests_total{api="Metadata"} 3',
    'kafka_operator_admin_requests_total{api="CreateTopics"} 2',
    'kafka_operator_admin_requests_total_other{api="Metadata"} 100',
    'process_resident_memory_bytes 1024',
  ].join('\n');

  it('sums the samples of one name whose labels match', () => {
    expect(metricSum(text, 'kafka_operator_admin_requests_total')).toBe(5);
    expect(metricSum(text, 'kafka_operator_admin_requests_total', { api: 'Metadata' })).toBe(3);
    expect(metricSum(text, 'process_resident_memory_bytes')).toBe(1024);
    expect(metricSum(text, 'kafka_operator_admin_requests_total', { api: 'Nope' })).toBe(0);
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(/median of nothing/);
  });
});
