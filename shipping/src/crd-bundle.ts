import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The texts of a chart's `crds/*.yaml` files, in name order, as Helm installs them. Reads the working tree. */
export function chartCrdTexts(chartDir: string): string[] {
  const dir = join(chartDir, 'crds');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => readFileSync(join(dir, file), 'utf8'));
}

/**
 * One multi-document YAML of every CRD text given, for `kubectl apply --server-side -f`: each text trimmed of a
 * leading `---`, joined by `---` lines, ending in a newline, under a header naming `operator` and `version`. Pure.
 */
export function crdBundle(operator: string, version: string, texts: readonly string[]): string {
  const header = `# The CustomResourceDefinitions of ${operator} ${version}: apply before upgrading the chart (Helm never upgrades CRDs):\n#   kubectl apply --server-side --force-conflicts -f ${operator}-crds.yaml\n`;
  const documents = texts.map((text) => text.replace(/^---\s*\n/, '').trimEnd());
  return `${header}${documents.map((document) => `---\n${document}\n`).join('')}`;
}
