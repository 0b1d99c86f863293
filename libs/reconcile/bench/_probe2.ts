import { KubeConfig } from '@kubernetes/client-node';
import { SharedInformers } from '../src/informer.ts';
import { coreTypes } from '../src/resource-type.ts';
const kubeConfig = new KubeConfig(); kubeConfig.loadFromFile('/work/main/.testenv/kubeconfig');
const ns = process.argv[2] ?? 'bench-1000';
const fast = new Function('o', 'return %HasFastProperties(o)') as (o: unknown) => boolean;
for (let i = 0; i < 2; i++) {
  const informers = new SharedInformers({ kubeConfig }, { namespace: ns });
  const inf = informers.informerFor(coreTypes.configMap);
  const stop = new AbortController();
  const running = informers.run(stop.signal);
  await inf.waitForSync();
  const objs = inf.store.list().filter((o) => o.metadata?.name?.startsWith('bench'));
  const count = (f: (o: any) => unknown) => objs.filter((o) => fast(f(o))).length;
  console.log(i, objs.length, 'fast obj', count((o) => o), 'meta', count((o) => o.metadata), 'data', count((o) => o.data), 'labels', count((o) => o.metadata.labels), 'ann', count((o) => o.metadata.annotations));
  stop.abort(); await running;
}
process.exit(0);
