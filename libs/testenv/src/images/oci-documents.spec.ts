import { describe, expect, it } from 'vitest';
import { digestOf } from './digest.ts';
import { imageConfig, imageIndex, imageManifest, MEDIA_TYPES, type LayerRef } from './oci-documents.ts';

const layers: LayerRef[] = [
  { digest: `sha256:${'a'.repeat(64)}`, diffId: `sha256:${'b'.repeat(64)}`, size: 10, createdBy: 'base' },
  { digest: `sha256:${'c'.repeat(64)}`, diffId: `sha256:${'d'.repeat(64)}`, size: 20, createdBy: 'app' },
];

describe('OCI documents', () => {
  it('writes the config with the runtime settings, amd64/linux and the diff_ids in order, without a date', () => {
    const config = imageConfig(
      { user: '65532:65532', env: ['A=1'], entrypoint: ['node', '/app/main.js'], workingDir: '/app', exposedPorts: ['8080/tcp'], labels: { l: 'v' } },
      layers,
    );
    const parsed = JSON.parse(Buffer.from(config.bytes).toString()) as Record<string, unknown>;
    expect(parsed).toEqual({
      architecture: 'amd64',
      os: 'linux',
      config: { User: '65532:65532', ExposedPorts: { '8080/tcp': {} }, Env: ['A=1'], Entrypoint: ['node', '/app/main.js'], WorkingDir: '/app', Labels: { l: 'v' } },
      rootfs: { type: 'layers', diff_ids: [layers[0]?.diffId, layers[1]?.diffId] },
      history: [{ created_by: 'base' }, { created_by: 'app' }],
    });
    expect(config.descriptor).toEqual({ mediaType: MEDIA_TYPES.config, digest: digestOf(config.bytes), size: config.bytes.byteLength });
    expect(imageConfig({ cmd: ['sh'] }, layers).descriptor.digest).toBe(imageConfig({ cmd: ['sh'] }, layers).descriptor.digest);
  });

  it('lists gzip layers in the manifest and names the image in the index', () => {
    const config = imageConfig({}, layers);
    const manifest = imageManifest(config.descriptor, layers);
    expect(JSON.parse(Buffer.from(manifest.bytes).toString())).toMatchObject({
      schemaVersion: 2,
      config: config.descriptor,
      layers: [
        { mediaType: MEDIA_TYPES.layer, digest: layers[0]?.digest, size: 10 },
        { mediaType: MEDIA_TYPES.layer, digest: layers[1]?.digest, size: 20 },
      ],
    });
    const index = JSON.parse(Buffer.from(imageIndex(manifest.descriptor, 'localhost/x/y:1.0', '1.0').bytes).toString()) as { manifests: unknown[] };
    expect(index.manifests).toEqual([
      {
        ...manifest.descriptor,
        platform: { architecture: 'amd64', os: 'linux' },
        annotations: { 'io.containerd.image.name': 'localhost/x/y:1.0', 'org.opencontainers.image.ref.name': '1.0' },
      },
    ]);
  });
});
