import { KubeConfig } from '@kubernetes/client-node';
import { SharedInformers } from '../src/informer.ts';
import { coreTypes } from '../src/resource-type.ts';
const kubeConfig = new KubeConfig(); kubeConfig.loadFromFile('/work/main/.testenv/kubeconfig');
const ns = process.argv[2] ?? 'bench-1000';
function heap(): number { gc!(); gc!(); return process.memoryUsage().heapUsed; }
const keep: unknown[] = [];
for (let i = 0; i < 4; i++) {
  const informers = new SharedInformers({ kubeConfig }, { namespace: ns });
  const inf = informers.informerFor(coreTypes.configMap);
  const stop = new AbortController();
  const b = heap();
  const running = informers.run(stop.signal);
  await inf.waitForSync();
  const a = heap();
  console.log(i, ((a - b) / inf.store.size()).toFixed(0), 'B/obj', ((a-b)/2**20).toFixed(2), 'MiB');
  keep.push(inf.store);
  stop.abort(); await running;
}
process.exit(0);
