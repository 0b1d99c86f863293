/** Prefixes of the iptables chains the node creates: kube-proxy and the kubelet (`KUBE-`), CNI plugins (`CNI-`), ours (`DOP-`). */
export const OWNED_CHAIN_PREFIXES = ['KUBE-', 'CNI-', 'DOP-'] as const;

function owned(chain: string): boolean {
  return OWNED_CHAIN_PREFIXES.some((prefix) => chain.startsWith(prefix));
}

/**
 * An `iptables-save` dump with every owned chain removed: its declaration (`:KUBE-… - [0:0]`), its rules, and every
 * rule of any other chain that jumps or goes to it. Everything else is kept byte for byte, so `iptables-restore` of
 * the result changes nothing that is not ours. Returns `undefined` when nothing in the dump is ours. Pure.
 */
export function withoutOwnedChains(dump: string): string | undefined {
  let changed = false;
  const kept: string[] = [];
  for (const line of dump.split('\n')) {
    const declaration = /^:(\S+)\s/.exec(line);
    if (declaration?.[1] !== undefined && owned(declaration[1])) {
      changed = true;
      continue;
    }
    const rule = /^-A\s+(\S+)(.*)$/.exec(line);
    if (rule?.[1] !== undefined) {
      const target = /\s-[jg]\s+(\S+)/.exec(rule[2] ?? '')?.[1];
      if (owned(rule[1]) || (target !== undefined && owned(target))) {
        changed = true;
        continue;
      }
    }
    kept.push(line);
  }
  return changed ? kept.join('\n') : undefined;
}

/** The owned chains a dump declares, e.g. to report what a sweep removed or a test found left over. Pure. */
export function ownedChains(dump: string): string[] {
  return dump
    .split('\n')
    .map((line) => /^:(\S+)\s/.exec(line)?.[1])
    .filter((chain): chain is string => chain !== undefined && owned(chain));
}
