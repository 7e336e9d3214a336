import {
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  ServerConfiguration,
  createConfiguration,
  type KubeConfig,
  type RequestContext,
  type ResponseContext,
} from '@kubernetes/client-node';

export interface KubeClients {
  apps: AppsV1Api;
  core: CoreV1Api;
  custom: CustomObjectsApi;
  coordination: CoordinationV1Api;
}

/** Called once per API request the generated clients send (watches are counted by the reflector). */
export type RequestHook = (method: string, url: string) => void;

/** The generated clients wait forever by default; a hung API server must fail a reconcile, not freeze its key. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The API clients, built on one configuration whose middleware sees every request: that is how
 * /metrics (and the bench) count API requests per reconcile without wrapping fetch, and where
 * each request gets its timeout.
 */
export function makeClients(kc: KubeConfig, onRequest?: RequestHook): KubeClients {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const config = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    promiseMiddleware: [
      {
        pre: async (ctx: RequestContext) => {
          onRequest?.(ctx.getHttpMethod(), ctx.getUrl());
          ctx.setSignal(AbortSignal.timeout(REQUEST_TIMEOUT_MS));
          return ctx;
        },
        post: async (res: ResponseContext) => res,
      },
    ],
  });
  return {
    apps: new AppsV1Api(config),
    core: new CoreV1Api(config),
    custom: new CustomObjectsApi(config),
    coordination: new CoordinationV1Api(config),
  };
}
