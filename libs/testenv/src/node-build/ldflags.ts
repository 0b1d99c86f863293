/**
 * The `-ldflags` of each node add-on program. Every set starts with `-s -w` (no symbol table, no DWARF:
 * smaller, faster to link) and stamps the version variables the project's own release build sets, so
 * `--version` reports the pinned version instead of a development placeholder. Pure.
 */
export const addonLdflags = {
  /**
   * containerd, its shim and ctr: the variables containerd's Makefile sets. `version.Revision` (the git commit)
   * stays empty: the Go module proxy does not say which commit a version is.
   */
  containerd(version: string): string {
    const pkg = 'github.com/containerd/containerd/v2';
    return `-s -w -X ${pkg}/version.Version=${version} -X ${pkg}/version.Package=${pkg}`;
  },

  /**
   * Our CoreDNS main. CoreDNS's version is a constant of the module; the variable its Makefile sets is the git
   * commit, which for this build is our source hash.
   */
  coredns(sourceHash: string): string {
    return `-s -w -X github.com/coredns/coredns/coremain.GitCommit=testenv-${sourceHash}`;
  },

  /** local-path-provisioner: the variable its build script sets (`main.VERSION`, default `0.0.1`). */
  localPathProvisioner(version: string): string {
    return `-s -w -X main.VERSION=${version}`;
  },

  /** Our pause program: `pause --version` prints its source hash. */
  pause(sourceHash: string): string {
    return `-s -w -X main.version=${sourceHash}`;
  },
} as const;
