import { describe, expect, it } from 'vitest';
import { parseDataStream } from './data-stream.ts';

describe('parseDataStream', () => {
  it('reads generation, backing indices in order, health in lower case and the template', () => {
    const body = {
      data_streams: [
        {
          name: 'team-a-app',
          timestamp_field: { name: '@timestamp' },
          indices: [{ index_name: '.ds-team-a-app-000001', index_uuid: 'u1' }, { index_name: '.ds-team-a-app-000002', index_uuid: 'u2' }],
          generation: 2,
          status: 'YELLOW',
          template: 'team-a-app-logs',
        },
      ],
    };
    expect(parseDataStream(body, 'team-a-app')).toEqual({
      name: 'team-a-app',
      generation: 2,
      backingIndices: ['.ds-team-a-app-000001', '.ds-team-a-app-000002'],
      health: 'yellow',
      template: 'team-a-app-logs',
    });
  });

  it('is undefined for another name or an answer without data streams', () => {
    expect(parseDataStream({ data_streams: [{ name: 'team-a-other' }] }, 'team-a-app')).toBeUndefined();
    expect(parseDataStream({ error: 'x' }, 'team-a-app')).toBeUndefined();
  });
});
