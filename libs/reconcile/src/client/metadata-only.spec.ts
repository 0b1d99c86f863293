import { describe, expect, it } from 'vitest';
import { isMetadataOnly, metadataOnly } from './metadata-only.ts';
import { collectionPath, coreTypes } from './resource-type.ts';

describe('metadataOnly', () => {
  it('names the same kind and path, marked for metadata-only lists and watches', () => {
    const type = metadataOnly(coreTypes.secret);
    expect(type).toEqual({ ...coreTypes.secret, projection: 'metadata' });
    expect(collectionPath(type, 'ns')).toBe('/api/v1/namespaces/ns/secrets');
    expect(isMetadataOnly(type)).toBe(true);
    expect(isMetadataOnly(coreTypes.secret)).toBe(false);
  });
});
