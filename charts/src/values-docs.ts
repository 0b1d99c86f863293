/**
 * The dotted paths of values in a `values.yaml` text that carry no description: a leaf key (one with a value on
 * its line) needs a comment block starting with `# --` right above it, or above one of its parent keys (a parent
 * documented as a whole, such as `resources`). Pure; reads block-style YAML as the charts write it.
 */
export function undocumentedValues(valuesYaml: string): string[] {
  const lines = valuesYaml.split('\n');
  const parents: { indent: number; key: string; documented: boolean }[] = [];
  const missing: string[] = [];
  for (const [index, line] of lines.entries()) {
    const match = /^( *)([A-Za-z0-9_.-]+):(.*)$/.exec(line);
    if (match === null) continue;
    const indent = match[1]?.length ?? 0;
    const key = match[2] ?? '';
    const rest = (match[3] ?? '').replace(/#.*$/, '').trim();
    while ((parents.at(-1)?.indent ?? -1) >= indent) parents.pop();
    const documented = hasDescription(lines, index) || parents.some((parent) => parent.documented);
    if (rest === '') {
      parents.push({ indent, key, documented });
      continue;
    }
    if (!documented) missing.push([...parents.map((parent) => parent.key), key].join('.'));
  }
  return missing;
}

/** Whether the comment block directly above line `index` starts with `# --`. */
function hasDescription(lines: readonly string[], index: number): boolean {
  let first: string | undefined;
  for (let i = index - 1; i >= 0; i--) {
    const text = lines[i]?.trim() ?? '';
    if (!text.startsWith('#')) break;
    first = text;
  }
  return first?.startsWith('# --') === true;
}
