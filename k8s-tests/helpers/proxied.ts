import { KubeConfig } from '@kubernetes/client-node';

/** The same credentials and trust as `kc`, pointed at a relay on 127.0.0.1:`port` in front of the same server. */
export function viaRelay(kc: KubeConfig, port: number): KubeConfig {
  const relayed = new KubeConfig();
  relayed.loadFromOptions({
    clusters: kc.clusters.map((c) => ({ ...c, server: `https://127.0.0.1:${port}` })),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return relayed;
}
