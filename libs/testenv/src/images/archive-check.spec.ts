import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import { checkArchive } from './archive-check.ts';
import { writeLayer } from './layer-writer.ts';
import { writeOciArchive, type ArchiveContent } from './oci-archive.ts';
import { imageConfig, imageIndex, imageManifest, MEDIA_TYPES } from './oci-documents.ts';
import { readTar } from './tar-read.ts';

async function archive(tamper?: (content: ArchiveContent) => ArchiveContent): Promise<Buffer> {
  const dir = scratchDir('archive-spec-');
  const layerFile = join(dir, 'l.tar.gz');
  const layer = await writeLayer([{ type: 'file', path: 'hello', mode: 0o755, uid: 0, gid: 0, content: { kind: 'bytes', data: Buffer.from('hi') } }], layerFile);
  const refs = [{ ...layer, createdBy: 'hello' }];
  const config = imageConfig({ entrypoint: ['/hello'] }, refs);
  const manifest = imageManifest(config.descriptor, refs);
  const content: ArchiveContent = {
    index: imageIndex(manifest.descriptor, 'localhost/t/hello:1', '1'),
    manifest,
    config,
    layers: [{ descriptor: { mediaType: MEDIA_TYPES.layer, digest: layer.digest, size: layer.size }, file: layerFile }],
  };
  await writeOciArchive(join(dir, 'a.tar'), tamper === undefined ? content : tamper(content));
  return readFileSync(join(dir, 'a.tar'));
}

describe('OCI archive', () => {
  it('holds an OCI layout whose digests and diff_ids check out', async () => {
    const bytes = await archive();
    expect(readTar(bytes).map((e) => e.path)).toEqual(expect.arrayContaining(['blobs', 'blobs/sha256', 'index.json', 'oci-layout']));
    const summary = checkArchive(bytes);
    expect(summary).toMatchObject({ reference: 'localhost/t/hello:1', tag: '1' });
    expect(summary.layerPaths).toEqual([['hello']]);
  });

  it('is refused when the config does not describe the layers', async () => {
    const bytes = await archive((content) => {
      const config = imageConfig({}, [{ digest: content.layers[0]!.descriptor.digest, diffId: `sha256:${'0'.repeat(64)}`, size: 1, createdBy: 'x' }]);
      const manifest = imageManifest(config.descriptor, [{ ...content.layers[0]!.descriptor, diffId: `sha256:${'0'.repeat(64)}`, createdBy: 'x' }]);
      return { ...content, config, manifest, index: imageIndex(manifest.descriptor, 'localhost/t/hello:1', '1') };
    });
    expect(() => checkArchive(bytes)).toThrow(/layer 0 uncompresses to sha256:\w+, the config's diff_id is sha256:0+/);
  });
});
