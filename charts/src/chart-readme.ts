import { parseDocument } from 'yaml';

/** One documented value of a chart: a row of the README's values table. */
export interface ValueDoc {
  /** Dotted path, e.g. `image.tag`. */
  readonly key: string;
  /** The JSON Schema type from values.schema.json (joined with `|` when several), else inferred from the default. */
  readonly type: string;
  /** The default, as compact JSON (`""` for an empty string). */
  readonly defaultValue: string;
  /** The `# --` comment block, joined into one paragraph. */
  readonly description: string;
}

/** What a chart README is generated from. */
export interface ChartReadmeInput {
  /** `Chart.yaml` text. */
  readonly chartYaml: string;
  /** `values.yaml` text. */
  readonly valuesYaml: string;
  /** `values.schema.json`, parsed. */
  readonly schema: unknown;
}

/**
 * The documented values of a `values.yaml` text, in file order: every key whose comment block starts with `# --`
 * (helm-docs convention). A documented parent (such as `resources`) is one row with its whole object as default,
 * and its children are not listed. Pure.
 */
export function documentedValues(valuesYaml: string, schema: unknown = {}): ValueDoc[] {
  const values: unknown = parseDocument(valuesYaml).toJS();
  const lines = valuesYaml.split('\n');
  const parents: { indent: number; key: string }[] = [];
  const docs: ValueDoc[] = [];
  let coveredBy: { indent: number } | undefined;
  for (const [index, line] of lines.entries()) {
    const match = /^( *)([A-Za-z0-9_.-]+):(.*)$/.exec(line);
    if (match === null) continue;
    const indent = match[1]?.length ?? 0;
    const key = match[2] ?? '';
    while ((parents.at(-1)?.indent ?? -1) >= indent) parents.pop();
    if (coveredBy !== undefined && indent <= coveredBy.indent) coveredBy = undefined;
    const path = [...parents.map((parent) => parent.key), key];
    const description = descriptionAbove(lines, index);
    if (description !== undefined && coveredBy === undefined) {
      const value = valueAt(values, path);
      docs.push({ key: path.join('.'), type: schemaType(schema, path) ?? inferredType(value), defaultValue: JSON.stringify(value ?? null), description });
      coveredBy = { indent };
    }
    if ((match[3] ?? '').replace(/#.*$/, '').trim() === '') parents.push({ indent, key });
  }
  return docs;
}

/** The text of the `# --` comment block directly above line `index`, or undefined when there is none. */
function descriptionAbove(lines: readonly string[], index: number): string | undefined {
  const block: string[] = [];
  for (let i = index - 1; i >= 0; i--) {
    const text = lines[i]?.trim() ?? '';
    if (!text.startsWith('#')) break;
    block.unshift(text);
  }
  const start = block.findIndex((text) => text.startsWith('# --'));
  if (start !== 0) return undefined;
  return block
    .map((text, i) => (i === 0 ? text.slice('# --'.length) : text.slice(1)).trim())
    .join(' ')
    .trim();
}

function valueAt(values: unknown, path: readonly string[]): unknown {
  let current = values;
  for (const key of path) current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

/** The `type` of the schema node at `path` (following `properties` and local `$ref`s), or undefined. */
function schemaType(schema: unknown, path: readonly string[]): string | undefined {
  const root = schema as { definitions?: Record<string, unknown> };
  const resolve = (node: unknown): Record<string, unknown> | undefined => {
    const object = node as Record<string, unknown> | undefined;
    const ref = object?.['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/definitions/')) return resolve(root.definitions?.[ref.slice('#/definitions/'.length)]);
    return object;
  };
  let node = resolve(schema);
  for (const key of path) node = resolve((node?.['properties'] as Record<string, unknown> | undefined)?.[key]);
  const type = node?.['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.join(' | ');
  const alternatives = (node?.['anyOf'] ?? node?.['oneOf']) as unknown[] | undefined;
  if (Array.isArray(alternatives)) {
    const types = alternatives.map((alternative) => resolve(alternative)?.['type']).filter((t): t is string => typeof t === 'string');
    if (types.length > 0) return [...new Set(types)].join(' | ');
  }
  return undefined;
}

function inferredType(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

/** A Markdown table cell: pipes escaped, no line breaks. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** The scalar `key: value` of a Chart.yaml text (first match), unquoted. */
function chartField(chartYaml: string, field: string): string {
  const match = new RegExp(`^${field}:\\s*(.*)$`, 'm').exec(chartYaml);
  return (match?.[1] ?? '').trim().replace(/^"(.*)"$/, '$1');
}

/**
 * The README of a chart: name and description from `Chart.yaml`, the install command, what the chart creates, and
 * the table of every documented value (key, type, default, description) from `values.yaml`. Pure; the same input
 * always gives the same text, so a test can compare it with the committed file.
 */
export function renderChartReadme(input: ChartReadmeInput): string {
  const name = chartField(input.chartYaml, 'name');
  const rows = documentedValues(input.valuesYaml, input.schema).map(
    (value) => `| \`${cell(value.key)}\` | ${cell(value.type)} | \`${cell(value.defaultValue)}\` | ${cell(value.description)} |`,
  );
  return [
    `# ${name}`,
    '',
    '<!-- Generated from Chart.yaml, values.yaml and values.schema.json by `nx run charts:generate`. Edit those, not this file. -->',
    '',
    chartField(input.chartYaml, 'description'),
    '',
    `Chart ${chartField(input.chartYaml, 'version')}, operator ${chartField(input.chartYaml, 'appVersion')}, Kubernetes \`${chartField(input.chartYaml, 'kubeVersion')}\`.`,
    '',
    '## Install',
    '',
    '```sh',
    `helm install ${name} charts/${name} --namespace domain-operators --create-namespace`,
    '```',
    '',
    'Helm installs the CRDs in `crds/` on the first install only; after an upgrade of the chart, apply them with',
    `\`kubectl apply --server-side -f charts/${name}/crds\`. Uninstalling the release leaves the CRDs (and so every`,
    'custom resource) in place.',
    '',
    'The chart runs the operator under Pod Security `restricted` with a least-privilege ClusterRole; with',
    '`replicaCount > 1` leader election turns on by itself. See [charts/README.md](../README.md) and the',
    '[operator docs](../../docs/operators/).',
    '',
    '## Values',
    '',
    'Every value is checked by `values.schema.json`; a misspelt or mistyped value is refused.',
    '',
    '| Key | Type | Default | Description |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
