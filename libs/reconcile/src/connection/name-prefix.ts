/**
 * The naming rule of a connection's tenancy, shared by every operator: a prefix template with the placeholder
 * `{namespace}` (Kafka's `tenancy.namePrefix`, OpenSearch's `tenancy.indexPrefix`), rendered per namespace; names a
 * namespace creates must start with its prefix. What a template may look like and which names are refused is each
 * system's (the characters its names take; Kafka also needs a separator after the namespace, since its prefixed ACLs
 * cannot exclude another namespace's longer prefix). Pure.
 */

/** The placeholder of a prefix template. */
export const NAMESPACE_PLACEHOLDER = '{namespace}';

/** The prefix of `namespace`: `template` with every `{namespace}` replaced; `''` without a template (no naming rule). Pure. */
export function renderNamePrefix(template: string | undefined, namespace: string): string {
  return template === undefined ? '' : template.replaceAll(NAMESPACE_PLACEHOLDER, namespace);
}

/** Another namespace whose prefix is longer than and starts with this namespace's, so names inside this prefix can reach it. */
export interface ForeignPrefix {
  readonly namespace: string;
  readonly prefix: string;
}

/**
 * The namespaces among `others` whose prefix extends the prefix of `namespace` (`team-a-b-` extends `team-a-`):
 * a name or pattern of `namespace` must not reach into them. None without a prefix. Pure.
 */
export function foreignPrefixes(template: string | undefined, namespace: string, others: readonly string[]): ForeignPrefix[] {
  const own = renderNamePrefix(template, namespace);
  if (own === '') return [];
  return others
    .filter((other) => other !== namespace)
    .map((other) => ({ namespace: other, prefix: renderNamePrefix(template, other) }))
    .filter((theirs) => theirs.prefix.length > own.length && theirs.prefix.startsWith(own));
}
