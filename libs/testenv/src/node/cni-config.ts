import { NODE_BRIDGE, NODE_IP, POD_CIDR } from './addresses.ts';

/** The CNI network's name, as the conflist and containerd's logs show it. */
export const CNI_NETWORK_NAME = 'domain-operators-testenv';

/** The file name of the one conflist in our CNI configuration directory. */
export const CNI_CONFLIST_FILE = '10-domain-operators-testenv.conflist';

/**
 * The node's CNI network: `bridge` on our own bridge (Pods' gateway {@link NODE_IP}, hairpin on so a Pod reaches
 * itself through its Service) with `host-local` IPAM over {@link POD_CIDR} keeping its allocations in `ipamDataDir`
 * (not the shared `/var/lib/cni`), then `portmap` for hostPorts. `ipMasq` is off: Pods have nowhere to go but the
 * bridge and the host, and the forward guard (`network.ts`) rejects anything else; kube-proxy masquerades what its
 * Services need. containerd adds the loopback interface itself. Pure.
 */
export function renderCniConflist(ipamDataDir: string): string {
  return `${JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: CNI_NETWORK_NAME,
      plugins: [
        {
          type: 'bridge',
          bridge: NODE_BRIDGE,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: {
            type: 'host-local',
            ranges: [[{ subnet: POD_CIDR, gateway: NODE_IP }]],
            routes: [{ dst: '0.0.0.0/0' }],
            dataDir: ipamDataDir,
          },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  )}\n`;
}
